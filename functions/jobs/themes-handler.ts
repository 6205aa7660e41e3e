import { setTimeout as sleep } from 'node:timers/promises';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import { runThemes, type ThemesResult } from './themes';

/**
 * A second run this long after the invocation's start when the first had sets to sync: while
 * messages come, they reach their themes within about 30 s; an idle minute ends at once.
 */
const SECOND_RUN_MS = 30_000;

/**
 * The themes job's Lambda entry, started every minute by an EventBridge schedule with a
 * reserved concurrency of 1 (one run at a time); it runs again at 30 s if the first run had
 * work. DynamoDB
 * actions: GetItem, Query, BatchGetItem, PutItem, UpdateItem, DeleteItem, BatchWriteItem
 * (`themes` in lib/table-access.ts).
 */
export const handler = middy<unknown, ThemesResult[]>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async () => {
    const started = Date.now();
    const store = defaultTableClient();
    const first = await runThemes(store, new Date());
    const wait = started + SECOND_RUN_MS - Date.now();
    if (first.sets === 0 || wait <= 0) return [first];
    await sleep(wait);
    return [first, await runThemes(store, new Date())];
  });
