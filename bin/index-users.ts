/**
 * `npm run responses:index-users`: adds the responses stored before the person index
 * (gsi4) existed to it, once after upgrading a deployed stack. Responses written since
 * are indexed when they are created.
 *
 * It scans the table for responses that carry profiling.userId but no index keys (an
 * operator's one-off: the API itself never scans) and sets userId and the index keys on
 * each, conditioned on the response still existing without them. The counters do not
 * change: the stream consumer ignores updates that leave a response's counted value as
 * it was. Safe to interrupt and run again.
 *
 * Same settings as the key CLI: DYNAMODB_ENDPOINT (unset: AWS), TABLE_NAME.
 * Exit codes: 0 done, 1 failed, 2 wrong usage.
 */
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createConversions } from 'electrodb';
import { defaultStore } from '../functions/store/entity-store';
import { isConditionFailure } from '../functions/store/conditions';
import { Response } from '../functions/store/entities';
import { userIndexAttributes } from '../functions/store/items';
import { describeError, print, runCli, where } from './cli';

const USAGE = `Usage: npm run responses:index-users

Adds responses stored before the person index existed (those with profiling.userId) to it,
so that responses/list, responses/export and responses/erase find them by userId. Run it
once after deploying the version that adds the index; running it again changes nothing.

Environment: DYNAMODB_ENDPOINT (unset: DynamoDB on AWS), TABLE_NAME.
`;

const conversions = createConversions(Response).byAccessPattern.byUser.fromComposite;

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    print(USAGE);
    return 0;
  }
  if (argv.length > 0) {
    process.stderr.write(`responses:index-users: takes no arguments (see --help)\n`);
    return 2;
  }
  const { store, client, settings } = defaultStore();
  let scanned = 0;
  let indexed = 0;
  try {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await store.documentClient.send(
        new ScanCommand({
          TableName: store.tableName,
          ExclusiveStartKey: start,
          FilterExpression: 'begins_with(#pk, :response) AND attribute_exists(#profiling.#userId) AND attribute_not_exists(#userKey)',
          ProjectionExpression: '#pk, #sk, #id, #accountId, #createdAt, #profiling.#userId',
          ExpressionAttributeNames: {
            '#pk': 'pk',
            '#sk': 'sk',
            '#id': 'id',
            '#accountId': 'accountId',
            '#createdAt': 'createdAt',
            '#profiling': 'profiling',
            '#userId': 'userId',
            '#userKey': 'userKey',
          },
          ExpressionAttributeValues: { ':response': 'response#' },
        }),
      );
      scanned += page.ScannedCount ?? 0;
      for (const item of page.Items ?? []) {
        const userId = (item.profiling as { userId?: unknown } | undefined)?.userId;
        if (typeof userId !== 'string' || userId === '') continue;
        const attributes = userIndexAttributes({ accountId: item.accountId, userId, createdAt: item.createdAt, id: item.id });
        const keys = conversions.toKeys({ ...attributes, id: item.id } as never) as Record<string, string>;
        try {
          await store.documentClient.send(
            new UpdateCommand({
              TableName: store.tableName,
              Key: { pk: item.pk, sk: item.sk },
              UpdateExpression: 'SET #userId = :userId, #userKey = :userKey, #userSort = :userSort, #gsi4pk = :gsi4pk, #gsi4sk = :gsi4sk',
              ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#userKey)',
              ExpressionAttributeNames: {
                '#pk': 'pk',
                '#userId': 'userId',
                '#userKey': 'userKey',
                '#userSort': 'userSort',
                '#gsi4pk': 'gsi4pk',
                '#gsi4sk': 'gsi4sk',
              },
              ExpressionAttributeValues: {
                ':userId': attributes.userId,
                ':userKey': attributes.userKey,
                ':userSort': attributes.userSort,
                ':gsi4pk': keys.gsi4pk,
                ':gsi4sk': keys.gsi4sk,
              },
            }),
          );
          indexed++;
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }
      start = page.LastEvaluatedKey;
      process.stderr.write(`\r${scanned} items scanned, ${indexed} responses indexed`);
    } while (start);
    process.stderr.write('\n');
    print(`Indexed ${indexed} response${indexed === 1 ? '' : 's'} by user in ${where(settings)}`);
    return 0;
  } catch (error) {
    process.stderr.write(`\nresponses:index-users: ${describeError(error, settings)}\n`);
    return 1;
  } finally {
    client.destroy();
  }
}

runCli('responses:index-users', main);
