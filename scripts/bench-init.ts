/**
 * Bundle size and cold start of the widgets' hot-path functions, for `npm run bench`.
 *
 * Each function is bundled as the stack bundles it (lib/bundling.ts settings, @aws-sdk/*
 * left to the runtime) into .tmp/bench-init/, next to a bare handler that sends the very
 * same DynamoDB requests with the AWS SDK alone (the inputs the real function sent,
 * recorded by the meter). Each is then started in a fresh Node process, as a new Lambda
 * container would be: `load` is the time to require the module (Lambda's init phase),
 * `first` the first invocation (clients created, connection opened), `second` a warm one.
 * Medians over `runs` processes, ours and bare alternated so both see the same load.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { BUNDLE_BUILD_OPTIONS } from '../lib/bundling';
import { percentile } from './bench-lib';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, '.tmp', 'bench-init');

export interface BundleFacts {
  bytes: number;
  /** Packages of node_modules inside the bundle, for the record (ElectroDB must not be one). */
  packages: string[];
}

/** The bundle of `entry`, written to .tmp/bench-init/<name>/index.js, built as lib/service-function.ts builds it. */
export async function bundle(name: string, entry: string): Promise<{ file: string } & BundleFacts> {
  const dir = join(OUT, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.js');
  const result = await build({
    ...BUNDLE_BUILD_OPTIONS,
    entryPoints: [resolve(ROOT, entry)],
    outfile: file,
  });
  const output = Object.values(result.metafile.outputs)[0];
  const packages = [
    ...new Set(
      Object.keys(output.inputs)
        .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1])
        .filter((name): name is string => name !== undefined),
    ),
  ].sort();
  return { file, bytes: output.bytes, packages };
}

export interface RecordedRequest {
  command: string;
  input: Record<string, unknown>;
}

/**
 * A handler with the AWS SDK alone that sends `requests` again (a Put gets a fresh key
 * each time, so a transaction's create condition holds), and answers like an API handler.
 */
export function bareHandler(name: string, requests: RecordedRequest[]): string {
  const dir = join(OUT, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.js');
  writeFileSync(
    file,
    `const { DynamoDBClient, BatchGetItemCommand, GetItemCommand, QueryCommand, TransactWriteItemsCommand, PutItemCommand, UpdateItemCommand } = require('@aws-sdk/client-dynamodb');
const { randomUUID } = require('node:crypto');
const COMMANDS = { BatchGetItemCommand, GetItemCommand, QueryCommand, TransactWriteItemsCommand, PutItemCommand, UpdateItemCommand };
const REQUESTS = ${JSON.stringify(requests)};
const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
function fresh(input) {
  const copy = JSON.parse(JSON.stringify(input));
  for (const item of copy.TransactItems || []) if (item.Put) { const id = randomUUID(); item.Put.Item.pk = { S: 'bare#' + id }; }
  if (copy.Item) copy.Item.pk = { S: 'bare#' + randomUUID() };
  return copy;
}
exports.handler = async () => {
  const answers = [];
  for (const { command, input } of REQUESTS) answers.push(await client.send(new COMMANDS[command](fresh(input))));
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(answers.length) };
};
`,
  );
  return file;
}

const MEASURE = `
const { readFileSync } = require('node:fs');
const [file, eventFile] = process.argv.slice(1);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const context = { awsRequestId: 'bench', functionName: 'bench', functionVersion: '$LATEST', invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:bench', memoryLimitInMB: '256', logGroupName: 'bench', logStreamName: 'bench', callbackWaitsForEmptyEventLoop: false, getRemainingTimeInMillis: () => 30000 };
(async () => {
  const t0 = performance.now();
  const module = require(file);
  const t1 = performance.now();
  const first = await module.handler(event, context);
  const t2 = performance.now();
  const second = await module.handler(event, context);
  const t3 = performance.now();
  console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1, second: t3 - t2, statuses: [first.statusCode, second.statusCode] }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

export interface InitTimings {
  load: number;
  first: number;
  second: number;
}

async function startOnce(file: string, eventFile: string, env: NodeJS.ProcessEnv): Promise<InitTimings> {
  const { stdout } = await run(process.execPath, ['-e', MEASURE, file, eventFile], { env, cwd: ROOT });
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as InitTimings & { statuses: number[] };
  if (result.statuses.some((status) => status < 200 || status > 299)) throw new Error(`${file} answered ${result.statuses.join(', ')}`);
  return result;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** Median init timings of `ours` and `bare` over `runs` fresh processes each, alternated. */
export async function measureInit(
  name: string,
  ours: string,
  bare: string,
  event: unknown,
  env: NodeJS.ProcessEnv,
  runs: number,
): Promise<{ ours: InitTimings; bare: InitTimings }> {
  const eventFile = join(OUT, name, 'event.json');
  writeFileSync(eventFile, JSON.stringify(event));
  const samples = { ours: [] as InitTimings[], bare: [] as InitTimings[] };
  for (let i = 0; i < runs; i++) {
    samples.ours.push(await startOnce(ours, eventFile, env));
    samples.bare.push(await startOnce(bare, eventFile, env));
  }
  const summarize = (list: InitTimings[]): InitTimings => ({
    load: median(list.map((timing) => timing.load)),
    first: median(list.map((timing) => timing.first)),
    second: median(list.map((timing) => timing.second)),
  });
  return { ours: summarize(samples.ours), bare: summarize(samples.bare) };
}
