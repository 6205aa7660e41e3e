import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/** The jest worker's one copy of the AWS SDK (test/support/worker-sdk.js) behaves as a file's own would. */
describe("the worker's AWS SDK", () => {
  test('is the one copy of the worker, whichever file imports it', () => {
    const workerSdkPackage = (globalThis as unknown as { workerSdkPackage: (name: string) => unknown }).workerSdkPackage;
    expect(require('@aws-sdk/lib-dynamodb')).toBe(workerSdkPackage('lib-dynamodb'));
    expect(() => workerSdkPackage('client-s3')).toThrow('not one of the worker');
  });

  test('makes DynamoDB sets that are Sets of the file (instanceof Set holds, as on Lambda)', () => {
    const item = unmarshall({ tags: { SS: ['a', 'b'] } });
    expect(item.tags instanceof Set).toBe(true);
    expect([...item.tags]).toEqual(['a', 'b']);
  });

  test("signs with the file's own key id (env.ts), and with a key the file sets later", async () => {
    const before = process.env.AWS_ACCESS_KEY_ID;
    expect(before).toMatch(/^test[0-9a-f]{12}$/);
    expect((await new DynamoDBClient({ region: 'local' }).config.credentials()).accessKeyId).toBe(before);
    process.env.AWS_ACCESS_KEY_ID = 'testlaterkey';
    try {
      expect((await new DynamoDBClient({ region: 'local' }).config.credentials()).accessKeyId).toBe('testlaterkey');
    } finally {
      process.env.AWS_ACCESS_KEY_ID = before;
    }
  });
});
