import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ANONYMOUS } from '../../functions/api/auth';
import { createResponse } from '../../functions/operations/response-collection';
import { keyOf } from '../../functions/store/batch';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { cliBundle } from '../support/cli-bundle';

/** bin/index-users.ts: responses stored before the person index existed become findable (and erasable) by userId. */
let api: TestApi;
let owner: AccountKeys;

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('index-users');
});
afterAll(() => api.close());

async function runCli(): Promise<{ code: number | null; stdout: string }> {
  // The CLI's code bundled once per run (cli-bundle.ts): tsx's start-up cost ~1.5 s of CPU a call.
  const bundle = await cliBundle('bin/index-users.ts');
  return new Promise((done) => {
    const child = spawn(process.execPath, [bundle], { cwd: resolve(__dirname, '../..'), env: process.env });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) => done({ code, stdout }));
  });
}

it('indexes old responses naming a user, once, without changing counts', async () => {
  const projectId = (await api.call('projects/create', [{ name: 'Old' }], { key: owner.admin })).body.id;
  const setId = await createContentSet(api, owner.admin, projectId, 'yes-no');
  const { store } = defaultStore();
  const ids: string[] = [];
  for (const [userId, value] of [
    ['old-ann', 'y'],
    ['old-ann', 'n'],
    [undefined, 'y'],
  ] as const) {
    const result = await createResponse(
      store,
      ANONYMOUS,
      { contentSetId: setId, key: 'page', value, profiling: userId ? { userId } : undefined },
      { headers: {} },
      new Date(),
    );
    ids.push(result.responseId);
  }
  // As stored before this version: no userId attribute and no index keys.
  for (const id of ids.slice(0, 2)) {
    await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keyOf(store.entities.Response.get({ id })),
        UpdateExpression: 'REMOVE userId, userKey, userSort, gsi4pk, gsi4sk',
      }),
    );
  }
  await api.drainStream();
  expect((await api.call('responses/list', [{ userId: 'old-ann' }], { key: owner.viewer })).body.items).toEqual([]);
  const stats = (await api.call('projects/getStats', [projectId], { key: owner.viewer })).body.count;

  const first = await runCli();
  expect(first.code).toBe(0);
  expect(first.stdout).toContain('Indexed 2 responses');
  const listed = (await api.call('responses/list', [{ userId: 'old-ann' }], { key: owner.viewer })).body.items.map((item: { id: string }) => item.id);
  expect(listed.sort()).toEqual(ids.slice(0, 2).sort());
  expect((await runCli()).stdout).toContain('Indexed 0 responses');

  await api.drainStream();
  expect((await api.call('projects/getStats', [projectId], { key: owner.viewer })).body.count).toBe(stats);
  expect((await api.call('responses/erase', [{ userId: 'old-ann' }], { key: owner.admin })).body).toEqual({ erased: 2, more: false });
}, 60_000);
