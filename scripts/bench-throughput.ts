/**
 * `responses/create` throughput at concurrency 16 against raw PutItem, measured by
 * `npm run bench` in a process of its own (this file, run as a child of the bench): as on
 * Lambda, the handler shares its process with nothing but its load generator and the raw
 * baseline, not with the local HTTP server, the bench's results and its metered client.
 * The HTTP loop calls the bench's local server, in the parent process.
 *
 * Eight loops per round, each calling with CONCURRENCY in flight for LOOP_MS, in an order
 * rotated every round (so that none always follows another); every round is reported and
 * the ratios are of sums over the rounds (a loaded 2-CPU machine moves one round by 20 %).
 * A loop lasts one staleness period (TARGET_MAX_AGE_MS): the handler then reads its
 * remembered targets again once per loop, as a busy instance does once per period. A
 * shorter loop would pay that whole read in a fraction of the period (1,200 calls took
 * 1.5 s and started with 50 BatchGetItems every time).
 */
import { spawn } from 'node:child_process';
import { GetItemCommand, PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { TARGET_MAX_AGE_MS } from '../functions/operations/target-cache';
import { apiClient, apiEvent, checkAnswer, rawBaseline } from './bench-lib';

/** Concurrent callers for the throughput comparison (the issue asks for 16). */
export const CONCURRENCY = 16;
const THROUGHPUT_ROUNDS = 4;
/** How long each loop runs in a round. */
export const LOOP_MS = TARGET_MAX_AGE_MS;
/** Untimed calls of every loop before the rounds: the child's code and DynamoDB Local's paths warm up. */
const WARM_UP_CALLS = 400;

export interface ThroughputRound {
  /** responses/create through the local HTTP server (in the bench's process), from this process. */
  ours: number;
  /** The same Lambda handler invoked with API Gateway events, in this process: our code without an HTTP server in front. */
  handler: number;
  /** The same handler on a set with onePerVisitor: one visitor on 50 pages, so every call replaces that visitor's vote (one UpdateItem). */
  handlerOnePerVisitor: number;
  /** The same set, a new visitor every call: every call is a visitor's first vote on the page that day (one UpdateItem that creates). */
  handlerOnePerVisitorFirst: number;
  /** Raw PutItem of a project-shaped item (one index). */
  raw: number;
  /** Raw PutItem of the very item responses/create writes (three index entries, its condition): the same DynamoDB work as ours. */
  rawResponse: number;
  /**
   * The same PutItem through the client responses/create sends it with (createRawClient:
   * middleware resolved once, no logger middleware): create's write with none of our code
   * around it. The other raw loops use the SDK's default client.
   */
  rawResponseHotClient: number;
  /** Raw TransactWriteItems of a Put and three ConditionChecks (create's shape before it became one PutItem): what DynamoDB Local allows such a write. */
  rawTransaction: number;
  /** Raw TransactWriteItems of a Put and one ConditionCheck: the most any write that refuses a response after an archive can reach. */
  rawSmallestRefusal: number;
}

export interface ThroughputRequest {
  endpoint: string;
  tableName: string;
  /** The bench's local API, for the HTTP loop. */
  baseUrl: string;
  /** A set of the bench's, with publicAggregates off: the loops answer on 50 of its pages. */
  contentSetId: string;
  /** The same with onePerVisitor on. */
  onePerVisitorSetId: string;
}

/** Runs the comparison in a child process (this file) and answers its rounds. */
export function throughputInChildProcess(request: ThroughputRequest): Promise<ThroughputRound[]> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, JSON.stringify(request)], {
      cwd: `${__dirname}/..`,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', failed);
    child.on('exit', (code) => {
      if (code !== 0) failed(new Error(`the throughput process ended with code ${code}`));
      else done(JSON.parse(output) as ThroughputRound[]);
    });
  });
}

/** Calls with CONCURRENCY in flight until `total` calls or `durationMs` (whichever comes first); returns calls per second. */
async function callsPerSecond(limit: { total?: number; durationMs?: number }, call: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const deadline = started + (limit.durationMs ?? Number.POSITIVE_INFINITY);
  const total = limit.total ?? Number.POSITIVE_INFINITY;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total && performance.now() < deadline) await call(next++);
    }),
  );
  return next / ((performance.now() - started) / 1000);
}

/**
 * A raw PutItem of exactly what responses/create writes: the item of a response just
 * created, read back; each call puts a copy under a new id (its key, id and index sort
 * keys) with create's condition, with the bare SDK. The project-shaped raw PutItem holds
 * one index entry; this one holds create's three, so the two ratios separate our code's
 * share from the item's.
 */
async function responseItemPut(client: DynamoDBClient, tableName: string, responseId: string) {
  const { Item: stored } = await client.send(
    new GetItemCommand({ TableName: tableName, Key: { pk: { S: `response#${responseId}` }, sk: { S: 'response' } }, ConsistentRead: true }),
  );
  if (!stored) throw new Error('the created response is not in the table');
  const template = JSON.stringify(stored);
  return async (i: number) => {
    // An id of the same length as ours (22 characters), so the item weighs the same.
    const id = `rawput${String(i).padStart(16, '0')}`;
    await client.send(
      new PutItemCommand({
        TableName: tableName,
        Item: JSON.parse(template.replaceAll(responseId, id)),
        ConditionExpression: 'attribute_not_exists(#pk) AND attribute_not_exists(#sk)',
        ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      }),
    );
  };
}

async function measure(request: ThroughputRequest): Promise<ThroughputRound[]> {
  process.env.DYNAMODB_ENDPOINT = request.endpoint;
  process.env.TABLE_NAME = request.tableName;
  const { handler: createHandler } = await import('../functions/handlers/responses/create');
  const { localLambdaContext } = await import('../local/lambda-context');
  const { createDynamoClient, createRawClient } = await import('../functions/store/dynamodb-clients');
  const client = createDynamoClient({ endpoint: request.endpoint, tableName: request.tableName });
  const hotClient = createRawClient({ endpoint: request.endpoint, tableName: request.tableName });
  const raw = rawBaseline(client, request.tableName);
  await raw.prepare();
  const send = apiClient(request.baseUrl, { admin: '', viewer: '' });
  const args = (i: number, contentSetId = request.contentSetId) => [{ contentSetId, key: `https://example.com/t/${i % 50}`, value: 'heart' }];
  // apiEvent names one address and user agent: with onePerVisitor, one visitor.
  const handler = async (i: number, contentSetId = request.contentSetId, userAgent?: string) => {
    const event = apiEvent('/v0/responses/create', 'POST', args(i, contentSetId));
    if (userAgent) event.headers['user-agent'] = userAgent;
    const answer = await createHandler(event as unknown as APIGatewayProxyEvent, localLambdaContext('bench-create'));
    if (answer.statusCode !== 200) throw new Error(`the create handler answered ${answer.statusCode}: ${answer.body}`);
    return JSON.parse(answer.body) as { responseId: string };
  };
  const firstResponseId = (await handler(0)).responseId;
  const rawResponsePut = await responseItemPut(client, request.tableName, firstResponseId);
  const hotClientPut = await responseItemPut(hotClient, request.tableName, firstResponseId);
  const loops = (round: number): Record<keyof ThroughputRound, (i: number) => Promise<void>> => ({
    ours: async (i) => checkAnswer('responses/create', await send('responses/create', { args: args(i), caller: 'anonymous' })),
    handler: async (i) => {
      await handler(i);
    },
    handlerOnePerVisitor: async (i) => {
      await handler(i, request.onePerVisitorSetId);
    },
    handlerOnePerVisitorFirst: async (i) => {
      await handler(i, request.onePerVisitorSetId, `bench-first-vote/${round}.${i}`);
    },
    raw: (i) => raw.put(1_000_000 * (round + 2) + i),
    rawResponse: (i) => rawResponsePut(1_000_000 * (round + 2) + i),
    // Ids of their own: the two loops put copies of the same item.
    rawResponseHotClient: (i) => hotClientPut(-1_000_000 * (round + 2) - i),
    rawTransaction: (i) => raw.transaction(1_000_000 * (round + 2) + i),
    rawSmallestRefusal: (i) => raw.transaction(1_000_000 * (round + 2) + i, 1),
  });
  for (const loop of Object.values(loops(-1))) await callsPerSecond({ total: WARM_UP_CALLS }, loop);
  const rounds: ThroughputRound[] = [];
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    const calls = loops(round);
    const names = Object.keys(calls) as (keyof ThroughputRound)[];
    const measured = {} as ThroughputRound;
    for (let index = 0; index < names.length; index++) {
      const name = names[(index + round) % names.length];
      measured[name] = await callsPerSecond({ durationMs: LOOP_MS }, calls[name]);
    }
    rounds.push(measured);
  }
  client.destroy();
  hotClient.destroy();
  const { defaultStore } = await import('../functions/store/entity-store');
  defaultStore().client.destroy();
  defaultStore().rawClient.destroy();
  return rounds;
}

if (require.main === module) {
  measure(JSON.parse(process.argv[2]) as ThroughputRequest).then(
    (rounds) => process.stdout.write(JSON.stringify(rounds)),
    (error) => {
      process.stderr.write(`bench-throughput failed: ${(error as Error).stack ?? (error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
