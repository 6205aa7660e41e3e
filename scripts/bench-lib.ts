/**
 * Harness of `npm run bench` (scripts/bench.ts): the case model, the measurement loop,
 * the raw DynamoDB baseline and the report. Nothing here asserts: it measures.
 *
 * Imports of the service's modules stay type-only or free of the logger, so the caller
 * can silence logs (POWERTOOLS_LOG_LEVEL) before the server's modules load.
 */
import { GetItemCommand, PutItemCommand, TransactWriteItemsCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { KeyLevel } from '../functions/api/auth';
import type { DynamoDbLocalOptions } from '../local/dynamodb-local';
import type { Capacity, DynamoMeter, MeterSnapshot } from './dynamo-meter';

export type Caller = KeyLevel | 'anonymous';

/** One HTTP call of a case: its arguments (the JSON array) and the key it is made with. */
export interface BenchRequest {
  args: unknown[];
  /** Which of the bench account's keys authenticates the call (the auth GetItem is part of the cost). */
  caller: Caller;
  /** POST by default; read-only operations may also be measured over GET. */
  method?: 'GET' | 'POST';
  /** The browser an anonymous call comes from; one fixed visitor unless a call names another (the flood rules hold a visitor's bursts). */
  userAgent?: string;
  /** The address it comes from (X-Forwarded-For, from the bench server's one trusted proxy); the socket's unless named (the address limit holds a fourth browser of one address). */
  address?: string;
}

export interface BenchContext {
  baseUrl: string;
  keys: Record<KeyLevel, string>;
  /** Calls each case makes: warm-up, measured, and one cold call (cases that use up state prepare this many). */
  calls: number;
  /** An API call for preparing data (not measured); throws unless it answers 2xx; returns the body. */
  api<T = any>(operation: string, args: unknown[], caller: Caller, visitor?: { userAgent: string; address?: string }): Promise<T>;
}

/**
 * One measured operation. `prepare` runs once, unmeasured, and returns whatever `call`
 * needs; `call(state, i)` describes the i-th request (i counts warm-up and measured calls
 * together, so it can make keys or names unique for creates).
 */
export interface BenchCase<State = unknown> {
  /** Shown in the report; also the operation path unless `operation` is given. */
  name: string;
  /** Operation path, e.g. `projects/get`, when it differs from the name. */
  operation?: string;
  /** The raw DynamoDB call it is compared with: GetItem for reads, PutItem for writes. */
  baseline: 'get' | 'put';
  prepare?(context: BenchContext): Promise<State>;
  call(state: State, i: number): BenchRequest;
}

/** Keeps each case's state type checked inside a heterogeneous list. */
export function benchCase<State>(definition: BenchCase<State>): BenchCase<any> {
  return definition as BenchCase<any>;
}

export interface BenchSettings {
  iterations: number;
  warmup: number;
  /** Empties what the server's function instance remembers (a new Lambda container), before the cold call. */
  coldStart?: () => void;
}

export interface Timings {
  median: number;
  p90: number;
  samples: number;
}

export interface CaseResult {
  name: string;
  /** The operation path measured. */
  operation: string;
  roundTripsPerCall: number;
  /** DynamoDB capacity units per call, as DynamoDB Local reports them (ReturnConsumedCapacity, summed). */
  capacityPerCall: number;
  /** Per call, by the published rules (dynamo-meter.ts `estimated`): read/write, table/indexes. */
  estimatedPerCall: Capacity;
  /** Requests per command over the measured calls, divided by their number. */
  commandsPerCall: Record<string, number>;
  /** One call right after a cold start (nothing remembered): its exact requests and capacity. */
  cold: { requests: number; commands: Record<string, number>; capacity: number; estimated: Capacity };
  ours: Timings;
  baseline: BenchCase['baseline'];
  raw: Timings;
}

/** Linear interpolation between closest ranks, on sorted samples. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

export function summarize(samples: readonly number[]): Timings {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), samples: sorted.length };
}

export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** A minimal client of the local API; keep-alive, like a browser or SDK would. */
export function apiClient(baseUrl: string, keys: Record<KeyLevel, string>) {
  return async function send(operation: string, request: BenchRequest): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': request.userAgent ?? 'bench' };
    if (request.address) headers['x-forwarded-for'] = request.address;
    if (request.caller !== 'anonymous') headers.authorization = `API-KEY ${keys[request.caller]}`;
    const method = request.method ?? 'POST';
    const body = JSON.stringify(request.args);
    const url = method === 'GET' ? `${baseUrl}/${operation}?$p=${encodeURIComponent(body)}` : `${baseUrl}/${operation}`;
    const response = await fetch(url, { method, headers, body: method === 'GET' ? undefined : body });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
}

export function checkAnswer(operation: string, answer: HttpAnswer): void {
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`${operation} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

/**
 * Raw DynamoDB calls with the AWS SDK, straight to DynamoDB Local: the floor any
 * operation is compared with. Items are shaped like a project (table and gsi1 keys,
 * a few strings), so DynamoDB Local maintains an index on puts as it does for ours.
 */
export function rawBaseline(client: DynamoDBClient, tableName: string) {
  const item = (pk: string): Record<string, AttributeValue> => ({
    pk: { S: pk },
    sk: { S: 'bench' },
    gsi1pk: { S: 'bench#raw' },
    gsi1sk: { S: `${pk}#bench` },
    name: { S: 'A benchmark item of about the size of a project' },
    description: { S: 'x'.repeat(120) },
    state: { S: 'active' },
    createdAt: { S: new Date().toISOString() },
    updatedAt: { S: new Date().toISOString() },
  });
  const readKey = 'bench-raw#get';
  /** Stand-ins for a project, set and item: what responses/create's transaction checks. */
  const checked = ['bench-raw#check#project', 'bench-raw#check#set', 'bench-raw#check#item'];
  return {
    async prepare(): Promise<void> {
      await client.send(new PutItemCommand({ TableName: tableName, Item: item(readKey) }));
      for (const pk of checked) await client.send(new PutItemCommand({ TableName: tableName, Item: item(pk) }));
    },
    /**
     * The shape of responses/create's write, sent raw: a Put and three ConditionChecks of
     * shared items; with `checks: 1`, the smallest write that can refuse a response on its
     * own when another item (a set) is archived.
     */
    async transaction(i: number, checks = checked.length): Promise<void> {
      await client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: item(`bench-raw#tx#${checks}#${i}`), ConditionExpression: 'attribute_not_exists(pk)' } },
            ...checked.slice(0, checks).map((pk) => ({
              ConditionCheck: {
                TableName: tableName,
                Key: { pk: { S: pk }, sk: { S: 'bench' } },
                ConditionExpression: '#state = :active',
                ExpressionAttributeNames: { '#state': 'state' },
                ExpressionAttributeValues: { ':active': { S: 'active' } },
              },
            })),
          ],
        }),
      );
    },
    async get(): Promise<void> {
      const { Item } = await client.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: readKey }, sk: { S: 'bench' } } }));
      if (!Item) throw new Error('the raw baseline item is missing');
    },
    async put(i: number): Promise<void> {
      await client.send(new PutItemCommand({ TableName: tableName, Item: item(`bench-raw#put#${i}`) }));
    },
  };
}
export type RawBaseline = ReturnType<typeof rawBaseline>;

async function time(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * Runs one case: prepare, then warm-up and measured calls. Each call of ours is followed
 * by one raw baseline call, so both see the same machine load (other processes, GC,
 * DynamoDB Local's JIT) and their ratio stays meaningful on a busy machine. Round trips
 * are counted only while our calls run.
 */
export async function runCase(
  definition: BenchCase<any>,
  context: BenchContext,
  raw: RawBaseline,
  settings: BenchSettings,
  rawCounter: { next: number },
  meter: DynamoMeter,
): Promise<CaseResult> {
  const operation = definition.operation ?? definition.name;
  const send = apiClient(context.baseUrl, context.keys);
  const state = definition.prepare ? await definition.prepare(context) : undefined;
  const call = (i: number) => async () => checkAnswer(operation, await send(operation, definition.call(state, i)));
  const rawCall = definition.baseline === 'get' ? () => raw.get() : () => raw.put(rawCounter.next++);

  // The cold call: index warmup + iterations, which no other call uses.
  settings.coldStart?.();
  const beforeCold = meter.snapshot();
  await call(settings.warmup + settings.iterations)();
  const cold = meter.since(beforeCold);

  for (let i = 0; i < settings.warmup; i++) {
    await call(i)();
    await rawCall();
  }
  const ours: number[] = [];
  const rawSamples: number[] = [];
  const spentInAll: MeterSnapshot[] = [];
  for (let i = settings.warmup; i < settings.warmup + settings.iterations; i++) {
    const before = meter.snapshot();
    ours.push(await time(call(i)));
    spentInAll.push(meter.since(before));
    rawSamples.push(await time(rawCall));
  }
  const perCall = (value: (spent: MeterSnapshot) => number) => spentInAll.reduce((sum, spent) => sum + value(spent), 0) / settings.iterations;
  const commands = [...new Set(spentInAll.flatMap((spent) => Object.keys(spent.commands)))];
  return {
    name: definition.name,
    operation,
    roundTripsPerCall: perCall((spent) => spent.requests),
    capacityPerCall: perCall((spent) => spent.capacity.total),
    estimatedPerCall: {
      total: perCall((spent) => spent.estimated.total),
      read: perCall((spent) => spent.estimated.read),
      write: perCall((spent) => spent.estimated.write),
      table: perCall((spent) => spent.estimated.table),
      indexes: perCall((spent) => spent.estimated.indexes),
    },
    commandsPerCall: Object.fromEntries(commands.map((command) => [command, perCall((spent) => spent.commands[command] ?? 0)])),
    cold: { requests: cold.requests, commands: cold.commands, capacity: cold.capacity.total, estimated: cold.estimated },
    ours: summarize(ours),
    baseline: definition.baseline,
    raw: summarize(rawSamples),
  };
}

function formatMs(ms: number): string {
  return ms.toFixed(2);
}

function formatRoundTrips(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** A progress line on stderr (stdout carries the report). */
export const log = (text: string) => process.stderr.write(`${text}\n`);

/** A bench option's value: a positive integer, or `fallback` when not given. */
export function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--${name} must be a positive integer, not "${value}"`);
  return number;
}

/** A Markdown table (readable as text, pastes into docs and PRs). */
export function markdownTable(header: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (rightAligned[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (rightAligned[column] ? `${'-'.repeat(width + 1)}:` : `:${'-'.repeat(width + 1)}`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function resultTable(results: readonly CaseResult[]): string {
  return markdownTable(
    [
      'operation',
      'round trips warm',
      'cold',
      'CU/call (DynamoDB Local)',
      'CU/call (published rules) R + W',
      'median ms',
      'p90 ms',
      'raw baseline median ms',
      'ratio',
    ],
    results.map((result) => [
      result.name,
      formatRoundTrips(result.roundTripsPerCall),
      String(result.cold.requests),
      formatRoundTrips(result.capacityPerCall),
      `${formatRoundTrips(result.estimatedPerCall.read)} + ${formatRoundTrips(result.estimatedPerCall.write)}`,
      formatMs(result.ours.median),
      formatMs(result.ours.p90),
      `${formatMs(result.raw.median)} (${result.baseline === 'get' ? 'GetItem' : 'PutItem'})`,
      `${(result.ours.median / result.raw.median).toFixed(1)}x`,
    ]),
    [false, true, true, true, true, true, true, true, true],
  );
}

function javaVersion(): string {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const line = `${run.stderr ?? ''}${run.stdout ?? ''}`.split('\n').find((text) => text.trim() !== '');
  return line?.trim() ?? 'unknown';
}

export function machineDescription(dynamoLocalHome: string): string[] {
  const cpus = os.cpus();
  const installedFrom = join(dynamoLocalHome, 'INSTALLED_FROM');
  return [
    `Date:      ${new Date().toISOString()}`,
    `Machine:   ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.release()} ${os.arch()}`,
    `Node:      ${process.version}`,
    `Java:      ${javaVersion()}`,
    `DynamoDB:  DynamoDB Local, in memory${existsSync(installedFrom) ? ` (${readFileSync(installedFrom, 'utf8').trim()})` : ''}`,
  ];
}

/** DynamoDB Local processes (Java or its shell wrapper) still serving a port, as [pid, command] pairs. */
function dynamoLocalProcessesOnPort(port: number): Array<{ pid: number; command: string }> {
  const listing = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  const portPattern = new RegExp(`-port'?\\s+'?${port}(?!\\d)`);
  return listing
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .filter((match) => match[2].includes('DynamoDBLocal.jar') && portPattern.test(match[2]))
    .map((match) => ({ pid: Number(match[1]), command: match[2] }));
}

/**
 * Kills any DynamoDB Local this run started that outlived its stop (matched by its port:
 * never another process) and returns what it found, for the report.
 */
export function killLeftoverDynamoLocal(port: number): Array<{ pid: number; command: string }> {
  const left = dynamoLocalProcessesOnPort(port);
  for (const orphan of left) {
    try {
      process.kill(orphan.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}

/**
 * Runs a benchmark against a DynamoDB Local of its own (in memory, table `tableName`), stops
 * it on the way out (Ctrl-C included), and prints the report under `title` with the machine,
 * the total time and whether DynamoDB Local left a process behind. Returns the exit code.
 * The service's modules are loaded only now, so the logger reads the level the script set.
 */
export async function benchOnDynamoDbLocal(
  title: string,
  tableName: string,
  run: () => Promise<string[]>,
  options: Pick<DynamoDbLocalOptions, 'jit'> = {},
): Promise<number> {
  const log = (text: string) => process.stderr.write(`${text}\n`);
  const { startDynamoDbLocal, DYNAMODB_LOCAL_HOME } = await import('../local/dynamodb-local');
  const started = performance.now();
  log('Starting DynamoDB Local (in memory)...');
  const dynamo = await startDynamoDbLocal(options);
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = tableName;
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= dynamo.stop());
  const interrupted = () => {
    log('\nInterrupted: stopping DynamoDB Local...');
    void stop().then(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  let report: string[];
  try {
    report = await run();
  } finally {
    const { defaultStore } = await import('../functions/store/entity-store');
    defaultStore().client.destroy();
    await stop();
  }
  const left = killLeftoverDynamoLocal(dynamo.port);
  console.log(
    [
      '',
      `# ${title}`,
      '',
      ...machineDescription(DYNAMODB_LOCAL_HOME),
      '',
      ...report,
      '',
      `Total time ${((performance.now() - started) / 1000).toFixed(1)} s. ${
        left.length === 0
          ? `DynamoDB Local stopped: no process left on port ${dynamo.port}.`
          : `DynamoDB Local had left ${left.length} process(es) on port ${dynamo.port}: killed.`
      }`,
    ].join('\n'),
  );
  return left.length === 0 ? 0 : 1;
}

/**
 * What the table benches start from, inside `benchOnDynamoDbLocal`'s run: the run's table,
 * made; the store; the client, metered (scripts/dynamo-meter.ts) from here on; and an account
 * named `accountName` with one project to fill.
 */
export async function benchAccount(tableName: string, accountName: string, now: Date) {
  const { defaultStore } = await import('../functions/store/entity-store');
  const { ensureTable } = await import('../functions/store/setup');
  const { meterClient } = await import('./dynamo-meter');
  const { ensureAccount } = await import('../functions/operations/api-keys');
  const { createProject } = await import('../functions/operations/projects');
  const { store, client } = defaultStore();
  await ensureTable(client, tableName);
  const meter = meterClient(client);
  const account = await ensureAccount(store, accountName, now);
  const project = await createProject(store, account.id, { name: 'Bench' }, now);
  return { store, client, meter, account, project };
}

/** An API Gateway proxy event of a call, as the stage delivers it to an operation's function. */
export function apiEvent(path: string, method: 'GET' | 'POST', args: unknown[]) {
  return {
    resource: path,
    path,
    httpMethod: method,
    headers: { 'content-type': 'application/json', 'user-agent': 'bench' },
    multiValueHeaders: {},
    queryStringParameters: method === 'GET' ? { $p: JSON.stringify(args) } : null,
    multiValueQueryStringParameters: method === 'GET' ? { $p: [JSON.stringify(args)] } : null,
    pathParameters: null,
    stageVariables: null,
    body: method === 'POST' ? JSON.stringify(args) : null,
    isBase64Encoded: false,
    requestContext: { requestId: 'bench', identity: { sourceIp: '127.0.0.1' } },
  };
}
