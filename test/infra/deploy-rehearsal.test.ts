/**
 * Deploy rehearsal. No AWS account is reachable here, so this plays the deploy locally:
 * it synthesizes the app (with a sender, as `cdk deploy -c mailFrom=...` does), takes each
 * function's code from the cloud assembly (the very directories `cdk deploy` zips and
 * uploads), creates the table in DynamoDB Local from the template's own table definition,
 * and runs every function as Lambda would: its handler loaded in a process of its own,
 * with exactly the environment the template gives it (plus the local stand-ins the
 * rehearsal adds: DYNAMODB_ENDPOINT, the Secrets Manager and SES v2 endpoints, and
 * WEBHOOK_ALLOW_PRIVATE_TARGETS so deliveries reach the rehearsal's own receiver on
 * 127.0.0.1), invoked with the event its trigger delivers — one real call per API
 * operation and route, one real stream batch per stream consumer, each schedule once, one
 * SES bounce per SNS subscription. Every DynamoDB request a function makes, and every mail
 * it sends (to the SES stand-in, which records it), is checked against the IAM statements
 * of that function's role in the template. The digest job mails a member its weekly digest;
 * that mail's unsubscribe link is then followed (GET, then the one-click POST).
 *
 * It catches, before a user's first deploy does: a bundle that does not load, a missing
 * or unresolvable environment variable, and an AccessDenied.
 *
 * Everything is discovered from the template (functions, their code, triggers, roles,
 * tables); the only app knowledge here is OPERATION_CALLS, the arguments of one valid call
 * per operation, keyed by route path. A function no call, mapping or schedule reaches
 * fails the coverage test, so a new operation cannot go unrehearsed.
 *
 * The assembly is the run's shared one (test/support/shared-assembly.ts: synthesized once
 * per run, with cdk.json's context as `cdk deploy` does, for this file and stack.test.ts).
 * To rehearse an assembly the CLI made (or to iterate without the ~40 s synthesis):
 * `npx cdk synth --no-version-reporting -c mailFrom='Feedback <feedback@mail.example.com>'
 * -o .tmp/assembly`, then REHEARSAL_ASSEMBLY=.tmp/assembly npx jest
 * test/infra/deploy-rehearsal.test.ts (without --no-version-reporting the CLI adds a
 * CDKMetadata resource the loader refuses as a second one; without the sender no schedule
 * mails, which the rehearsal expects). The directory must be inside the repository: the
 * bundles leave @aws-sdk/* to the runtime (Lambda's nodejs runtime provides it) and
 * resolve it here from node_modules.
 */
import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import * as path from 'node:path';
import { runInNewContext } from 'node:vm';
import { operationPath } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DIGEST_HOUR_UTC } from '../../functions/jobs/digest';
import { senderAddress } from '../../functions/mail/settings';
import { ensureAccount, issueApiKey } from '../../functions/operations/api-keys';
import { createWebhook } from '../../functions/operations/webhooks';
import { createDocumentClient } from '../../functions/store/dynamodb-clients';
import { createStore, type Store } from '../../functions/store/entities';
import { newId } from '../../functions/domain/text';
import {
  actionMatches,
  apiRoutes,
  asyncFailureDestinations,
  createTableFromTemplate,
  deployTimeFunctions,
  functionSpecs,
  grantedActions,
  invokePermissions,
  isAllowed,
  loadCloudAssembly,
  ofType,
  referencedIds,
  refId,
  RESERVED_ENVIRONMENT,
  resolveStatements,
  resolveValue,
  roleStatements,
  ruleTargets,
  streamMappings,
  topicSubscriptions,
  type ApiRoute,
  type FunctionSpec,
  type LoadedAssembly,
  type LocalBindings,
  type Permission,
  type ResolvedStatement,
  type RuleTarget,
  type StreamMapping,
  type TopicSubscription,
} from '../support/cloud-assembly';
import { RecordingProxy, requiredPermissions, type RecordedCall } from '../support/dynamo-recorder';
import { apiGatewayProxyEvent, passesFilters, readStream, scheduledEvent, snsEvent } from '../support/event-sources';
import { LocalLambda, type Invocation } from '../support/local-lambda';
import { sharedCloudAssembly, TEST_MAIL_FROM } from '../support/shared-assembly';

// Answers and template fragments are untyped JSON.
type Json = any;

// ---------------------------------------------------------------- one call per operation

type Auth = 'admin' | 'viewer' | 'anonymous';

/** What earlier calls produced, for the arguments of later ones. */
interface Fixture {
  keys: { admin: string; viewer: string };
  project: Json;
  set: Json;
  content: Json;
  /** Created through responses/create on a new key (the item is created with it), then edited. */
  /** Made by keys/create, revoked by keys/revoke. */
  createdKey: Json;
  first: Json;
  /** Created through the widgets' alias path in SPEC's positional form, then removed. */
  second: Json;
  firstStored: Json;
  /** Created by webhooks/create: it receives the stream's events at the rehearsal's receiver. */
  webhook: Json;
  /** A delivery of the stream's events, redelivered by webhooks/redeliver (the sweeper then sends it). */
  delivery: Json;
  /** A disabled webhook made directly in the table, for webhooks/remove (the one above must outlive the calls). */
  spareWebhookId: string;
  /** An owner with a verified address, made directly in the table (no identity provider here): the digest job mails them. */
  member: { personKey: string; id: string; address: string };
  /** The token of the unsubscribe link in that member's digest mail. */
  unsubscribeToken: string;
}

interface OperationCall {
  auth: Auth;
  /** @default POST */
  method?: 'GET' | 'POST';
  /** The route's path when the key is not it (a second call of one route). @default the key */
  path?: string;
  /** An operation's JSON arguments (in `$p` for a GET). */
  args?(fixture: Fixture): unknown[];
  /** A route that is no operation (the unsubscribe link): its query and body as they are sent; the answer is not JSON. */
  request?(fixture: Fixture): { query: Record<string, string>; body?: string; contentType?: string };
  /** Keeps what later calls need; may also assert that the answer carries real data (the body as text for `request` calls). */
  keep?(body: Json, fixture: Fixture): void | Promise<void>;
  /** Runs after the stream consumers have counted the responses (reads of counters). */
  afterStream?: boolean;
  /**
   * The one answer the call must give instead of a 2xx, with why: for the operations only a
   * signed-in person can complete (the rehearsal has API keys, no identity provider). The
   * function still loads, authenticates and reads what it reads before refusing.
   */
  refusal?: { status: number; error: string; why: string };
}

const FIRST_KEY = 'https://example.com/rehearsal/first-response';

/**
 * One valid call per operation, keyed by route path, in the order they run (creations
 * before reads). A path may be an alias (`feelbacks/...`) of an operation's, which reaches it
 * through the distribution's viewer-request function, as the widgets' calls do.
 */
const OPERATION_CALLS: Record<string, OperationCall> = {
  'projects/create': {
    auth: 'admin',
    args: () => [{ name: 'Rehearsal', description: 'deploy rehearsal' }],
    keep: (body, fixture) => (fixture.project = body),
  },
  'projects/get': { auth: 'viewer', args: (f) => [f.project.id] },
  'projects/lookup': { auth: 'viewer', args: () => ['Rehears'], keep: (body) => expect(body).toHaveLength(1) },
  'projects/save': { auth: 'admin', args: (f) => [f.project.id, { description: 'rehearsed' }] },
  'sets/create': {
    auth: 'admin',
    args: (f) => [{ projectId: f.project.id, key: 'reactions', schema: 'reaction', metadata: { name: 'Rehearsal reactions', publicAggregates: true } }],
    keep: (body, fixture) => (fixture.set = body),
  },
  'sets/get': { auth: 'viewer', args: (f) => [f.set.id] },
  'sets/lookup': { auth: 'viewer', args: (f) => ['reactions', { projectId: f.project.id }], keep: (body) => expect(body).toHaveLength(1) },
  // A new key: the save is then a transaction that also moves the key's uniqueness item.
  'sets/save': { auth: 'admin', args: (f) => [f.set.id, { key: 'reactions-v2', description: 'rehearsed' }], keep: (body, fixture) => (fixture.set = body) },
  'sets/exists': { auth: 'viewer', method: 'GET', args: (f) => [{ projectId: f.project.id, key: f.set.key }], keep: (body) => expect(body).toBe(true) },
  'contents/create': {
    auth: 'admin',
    args: (f) => [{ contentSetId: f.set.id, key: 'https://example.com/rehearsal/page', metadata: { title: 'Rehearsal page' } }],
    keep: (body, fixture) => (fixture.content = body),
  },
  'contents/get': { auth: 'viewer', args: (f) => [f.content.id] },
  'contents/lookup': { auth: 'viewer', args: (f) => ['Rehearsal', { contentSetId: f.set.id }], keep: (body) => expect(body).toHaveLength(1) },
  'contents/save': {
    auth: 'admin',
    args: (f) => [f.content.id, { key: 'https://example.com/rehearsal/moved', description: 'rehearsed' }],
    keep: (body, fixture) => (fixture.content = body),
  },
  'contents/exists': { auth: 'viewer', args: (f) => [{ contentSetId: f.set.id, key: f.content.key }], keep: (body) => expect(body).toBe(true) },
  // Before the responses: the webhooks consumer's batch then queues and attempts their deliveries.
  'webhooks/create': {
    auth: 'admin',
    args: (f) => [{ url: receiverUrl, projectId: f.project.id, description: 'rehearsal' }],
    keep: (body, fixture) => (fixture.webhook = body),
  },
  'webhooks/get': { auth: 'admin', args: (f) => [f.webhook.id] },
  'webhooks/list': { auth: 'admin', args: () => [{ $size: 10 }], keep: (body) => expect(body.items).toHaveLength(2) },
  'webhooks/save': { auth: 'admin', args: (f) => [f.webhook.id, { description: 'rehearsed' }] },
  'webhooks/rotateSecret': { auth: 'admin', args: (f) => [f.webhook.id] },
  'webhooks/test': { auth: 'admin', args: (f) => [f.webhook.id], keep: (body) => expect(body.status).toBe('succeeded') },
  'responses/create': {
    auth: 'anonymous',
    args: (f) => [{ contentSetId: f.set.id, key: FIRST_KEY, value: '+1', revokable: true, context: { $user: 'rehearsal@example.com' } }],
    keep: (body, fixture) => (fixture.first = body),
  },
  'feelbacks/create': {
    auth: 'anonymous',
    args: (f) => [f.set.id, f.content.key, 'rocket', null, null, true],
    keep: (body, fixture) => (fixture.second = body),
  },
  'responses/edit': { auth: 'anonymous', args: (f) => [{ responseId: f.first.responseId, revokeToken: f.first.revokable.token, value: 'heart' }] },
  'responses/remove': { auth: 'anonymous', args: (f) => [{ feelbackId: f.second.responseId, revokeToken: f.second.revokable.token }] },
  'responses/get': {
    auth: 'viewer',
    afterStream: true,
    args: (f) => [f.first.responseId],
    keep: (body, fixture) => (fixture.firstStored = body),
  },
  'responses/list': {
    auth: 'viewer',
    afterStream: true,
    args: (f) => [{ contentSetId: f.set.id, state: 'all' }],
    keep: (body) => expect(body.items).toHaveLength(1),
  },
  'projects/getStats': { auth: 'viewer', afterStream: true, args: (f) => [f.project.id], keep: (body) => expect(body.count).toBe(1) },
  'sets/getStats': { auth: 'viewer', afterStream: true, args: (f) => [f.set.id, { period: 'day' }], keep: (body) => expect(body.count).toBe(1) },
  'contents/getStats': {
    auth: 'viewer',
    afterStream: true,
    args: (f) => [f.firstStored.contentItemId, { period: 'rolling7d' }],
    keep: (body) => expect(body.count).toBe(1),
  },
  // Non-empty rankings: the entries' BatchGetItem and stats Queries run too.
  'sets/top': { auth: 'viewer', afterStream: true, args: (f) => [{ projectId: f.project.id }], keep: (body) => expect(body).toHaveLength(1) },
  'contents/top': { auth: 'viewer', afterStream: true, args: (f) => [{ contentSetId: f.set.id }], keep: (body) => expect(body).toHaveLength(1) },
  // The widgets' call: GET on the alias path, anonymous (the set has public aggregates).
  'feelbacks/getAggregates': {
    auth: 'anonymous',
    method: 'GET',
    afterStream: true,
    args: (f) => [{ contentSetId: f.set.id, key: FIRST_KEY }],
    keep: (body) => expect(body.reduce((sum: number, count: number) => sum + count, 0)).toBe(1),
  },
  'responses/export': {
    auth: 'viewer',
    afterStream: true,
    args: (f) => [{ contentSetId: f.set.id, format: 'csv', state: 'all' }],
    keep: (body) => expect(body.rows).toBe(1),
  },
  'projects/digest': {
    auth: 'viewer',
    afterStream: true,
    args: (f) => [f.project.id],
    keep: (body, fixture) => expect(body.projectId).toBe(fixture.project.id),
  },
  'alerts/list': { auth: 'viewer', afterStream: true, args: () => [{ $size: 10 }], keep: (body) => expect(body.items).toEqual([]) },
  'alerts/settings': { auth: 'viewer', args: () => [], keep: (body) => expect(body).toEqual({ falseDiscoveryRate: 0.05 }) },
  'alerts/saveSettings': { auth: 'admin', args: () => [{ falseDiscoveryRate: 0.05 }], keep: (body) => expect(body).toEqual({ falseDiscoveryRate: 0.05 }) },
  // Themes: the rehearsal's set holds reactions, which have no messages: the reads answer none.
  'contents/themes': { auth: 'viewer', args: (f) => [f.content.id, { period: 'day' }], keep: (body) => expect(body.messages).toBe(0) },
  'sets/themes': {
    auth: 'viewer',
    method: 'GET',
    args: (f) => [f.set.id, { period: 'day', compare: 'previous' }],
    keep: (body) => expect(body.themes).toEqual([]),
  },
  'projects/themes': { auth: 'viewer', args: (f) => [f.project.id], keep: (body) => expect(body.other).toBe(0) },
  'sets/themeCurations': { auth: 'viewer', args: (f) => [f.set.id], keep: (body) => expect(body).toEqual([]) },
  'sets/curateThemes': {
    auth: 'admin',
    args: (f) => [f.set.id, { kind: 'pin', label: 'Rehearsal theme', phrases: ['rehearsal'] }],
    refusal: { status: 404, error: 'not-found', why: "only a message set has themes, and the rehearsal's set holds reactions" },
  },
  // The docs function (GET /openapi.json, /docs): it reads no table.
  'openapi.json': { auth: 'anonymous', method: 'GET', args: () => [] },
  'keys/list': { auth: 'admin', args: () => [{ $size: 10 }], keep: (body) => expect(body.items.length).toBeGreaterThan(0) },
  'keys/create': { auth: 'admin', args: () => [{ level: 'viewer', label: 'rehearsal' }], keep: (body, fixture) => (fixture.createdKey = body) },
  'keys/revoke': { auth: 'admin', args: (f) => [f.createdKey.id] },
  // Before the stream: its batch then holds the erased response's whole life, whose
  // deliveries the webhooks consumer queues and then deletes (DeleteItem by its role).
  // Nothing is held in the rehearsal: the calls judge none, by id and by item.
  'responses/release': {
    auth: 'admin',
    args: (f) => [{ responseIds: [f.second.responseId] }],
    keep: (body) => expect(body.changed).toBe(0),
  },
  'responses/discard': {
    auth: 'admin',
    args: (f) => [{ contentId: f.content.id }],
    keep: (body) => expect(body).toEqual({ changed: 0, more: false }),
  },
  'responses/erase': {
    auth: 'admin',
    args: (f) => [{ responseIds: [f.second.responseId] }],
    keep: (body) => expect(body.erased).toBe(1),
  },
  'webhooks/deliveries': {
    auth: 'admin',
    afterStream: true,
    args: (f) => [{ webhookId: f.webhook.id, status: 'succeeded' }],
    keep: (body, fixture) => {
      // The test event and the stream's events (content.created of both items, response.created
      // and updated, and response.deleted for the erased response, whose own deliveries are gone).
      expect(body.items.map((delivery: Json) => delivery.eventType).sort()).toEqual([
        'content.created',
        'content.created',
        'response.created',
        'response.deleted',
        'response.updated',
        'webhook.test',
      ]);
      // A response event's: its redelivery also moves the erasure pointer's expiry (PutItem).
      fixture.delivery = body.items.find((delivery: Json) => delivery.eventType === 'response.created');
    },
  },
  'webhooks/redeliver': { auth: 'admin', afterStream: true, args: (f) => [f.delivery.id], keep: (body) => expect(body.status).toBe('pending') },
  'webhooks/remove': { auth: 'admin', afterStream: true, args: (f) => [f.spareWebhookId] },
  'members/me': { auth: 'viewer', args: () => [], keep: (body) => expect(body.level).toBe('viewer') },
  // The owner the digest job mails, with their address and mail settings.
  'members/list': {
    auth: 'admin',
    args: () => [],
    keep: (body, f) => expect(body.items).toEqual([expect.objectContaining({ id: f.member.id, mail: { address: f.member.address } })]),
  },
  // Mail: an API key has no mailbox (a signed-in member reads and sets their own; the digest now is theirs too).
  'members/notifications': {
    auth: 'viewer',
    args: () => [],
    refusal: { status: 403, error: 'forbidden', why: 'only a signed-in member has notifications' },
  },
  'members/setNotifications': {
    auth: 'viewer',
    args: () => [{ weeklyDigest: true }],
    refusal: { status: 403, error: 'forbidden', why: 'only a signed-in member has notifications' },
  },
  'members/sendDigest': {
    auth: 'viewer',
    args: (f) => [f.project.id],
    refusal: { status: 403, error: 'forbidden', why: 'only a signed-in member has a mailbox' },
  },
  // The link in the digest mail the member got (after the schedules): a GET shows the page and changes nothing...
  'mail/unsubscribe (GET)': {
    path: 'mail/unsubscribe',
    auth: 'anonymous',
    method: 'GET',
    afterStream: true,
    request: (f) => ({ query: { token: f.unsubscribeToken } }),
    keep: async (page, f) => {
      expect(page).toMatch(/<form [^>]*method="post"/);
      expect((await memberItem(f)).notifications?.weeklyDigest).toBeUndefined();
    },
  },
  // ... and the one-click POST (RFC 8058's form body) turns the weekly digest off.
  'mail/unsubscribe': {
    auth: 'anonymous',
    afterStream: true,
    request: (f) => ({ query: { token: f.unsubscribeToken }, body: 'List-Unsubscribe=One-Click', contentType: 'application/x-www-form-urlencoded' }),
    keep: async (page, f) => {
      expect(page).toMatch(/unsubscribed/i);
      expect((await memberItem(f)).notifications).toEqual({ weeklyDigest: false });
    },
  },
  'members/invite': {
    auth: 'admin',
    args: () => [{ email: 'rehearsal@example.com', role: 'viewer' }],
    // CONSOLE_URL, the distribution's domain in the template (its stand-in here), never the request's Origin.
    keep: (body) => expect(body.url).toMatch(/^https:\/\/console\.rehearsal\.example\/invitations#/),
  },
  'members/invitedTo': {
    auth: 'anonymous',
    args: () => ['fbi_rehearsal'],
    refusal: { status: 404, error: 'not-found', why: 'no invitation has that token' },
  },
  'members/renameAccount': {
    auth: 'admin',
    args: () => ['Rehearsal team'],
    refusal: { status: 403, error: 'forbidden', why: 'only an owner, a signed-in person, renames the account' },
  },
  'members/invitations': { auth: 'admin', args: () => [{ $size: 10 }], keep: (body) => expect(Array.isArray(body.items)).toBe(true) },
  'members/withdraw': {
    auth: 'admin',
    args: () => ['AAAAAAAAAAAAAAAAAAAAAA'],
    refusal: { status: 404, error: 'not-found', why: 'no invitation has that id' },
  },
  'members/accept': {
    auth: 'admin',
    args: () => ['fbi_rehearsal'],
    refusal: { status: 403, error: 'forbidden', why: 'only a signed-in person accepts an invitation' },
  },
  'members/setRole': {
    auth: 'admin',
    args: () => ['AAAAAAAAAAAAAAAAAAAAAA', 'viewer'],
    refusal: { status: 404, error: 'not-found', why: 'no person is a member without an identity provider' },
  },
  'members/remove': {
    auth: 'admin',
    args: () => ['AAAAAAAAAAAAAAAAAAAAAA'],
    refusal: { status: 404, error: 'not-found', why: 'no person is a member without an identity provider' },
  },
  // After the stream: a past response, which no later count reads.
  'responses/import': {
    auth: 'admin',
    afterStream: true,
    args: (f) => [f.set.id, [{ key: FIRST_KEY, value: 'heart', createdAt: '2025-06-01T00:00:00.000Z', importId: 'rehearsal-1' }]],
    keep: (body) => expect(body.rows).toEqual([expect.objectContaining({ index: 0, status: 'imported' })]),
  },
  // Last: every change above by a key wrote its audit entry.
  'audit/list': { auth: 'admin', afterStream: true, args: () => [{ $size: 100 }], keep: (body) => expect(body.items.length).toBeGreaterThan(10) },
  'audit/export': { auth: 'admin', afterStream: true, args: () => [{ format: 'ndjson' }], keep: (body) => expect(body.rows).toBeGreaterThan(10) },
};

// ---------------------------------------------------------------- the local deployment

/** DynamoDB Local keeps one namespace per access key and region: the functions must use the test's. */
/** The file's own DynamoDB Local database (test/support/env.ts), for the rehearsal's clients and the functions alike. */
const LOCAL_CREDENTIALS = { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local', secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local' };
const LOCAL_REGION = 'local';
/** Lambda refuses environments larger than this (names and values). */
const MAX_ENVIRONMENT_BYTES = 4096;
const SYNTH_TIMEOUT = 300_000;
const DAY_MS = 24 * 3600 * 1000;
/** The second run of each schedule: a week later (see runSchedules). */
const SCHEDULE_CLOCK_AHEAD_DAYS = 7;
/** The name the rehearsal gives the SES configuration set (CloudFormation would generate one). */
const CONFIGURATION_SET_NAME = 'rehearsal-configuration-set';

let assembly: LoadedAssembly;
let bindings: LocalBindings;
let functions: FunctionSpec[];
let routes: ApiRoute[];
let mappings: StreamMapping[];
let schedules: RuleTarget[];
let subscriptions: TopicSubscription[];
/** The table the API functions use, for the checks that read what a function wrote. */
let store: Store;
let stageName: string;
/** The API behaviour's viewer-request function of the template's distribution (CloudFront Functions code, run as is). */
let viewerRequest: (event: Json) => Json;
let dynamo: DynamoDBClient;
let streams: DynamoDBStreamsClient;
let fixture: Fixture;
const timings: Record<string, number> = {};

/** A running execution environment of a function, with the recording proxy it is given as endpoint. */
interface Environment {
  proxy: RecordingProxy;
  lambda?: LocalLambda;
  initError?: string;
}
/** By function id; `<id>+<ms>ms` for an environment whose clock runs ahead (see runSchedules). */
const environments = new Map<string, Environment>();

interface InvocationRecord {
  functionId: string;
  /** `POST projects/create`, `stream batch of <mapping>`, `schedule <rule>`. */
  label: string;
  result: Invocation;
  calls: RecordedCall[];
  /** The mails it sent: SES v2 SendEmail requests, as the SES stand-in received them. */
  mails: SentMail[];
  environment: Environment;
}
const invocations: InvocationRecord[] = [];

beforeAll(async () => {
  const started = Date.now();
  const dir = process.env.REHEARSAL_ASSEMBLY ?? (await sharedCloudAssembly());
  timings.synth = Date.now() - started;
  assembly = loadCloudAssembly(path.resolve(dir));
  functions = functionSpecs(assembly);
  for (const [functionId, reason] of deployTimeFunctions(assembly)) process.stdout.write(`rehearsal: skipped ${functionId}: ${reason}\n`);
  routes = apiRoutes(assembly);
  mappings = streamMappings(assembly);
  schedules = ruleTargets(assembly);
  subscriptions = topicSubscriptions(assembly);
  const stages = ofType(assembly, 'AWS::ApiGateway::Stage').map(([, stage]) => stage.Properties.StageName);
  stageName = stages[0] ?? 'prod';
  viewerRequest = apiViewerRequest();

  const endpoint = process.env.DYNAMODB_ENDPOINT!;
  dynamo = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  streams = new DynamoDBStreamsClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });

  // The tables, from the template's definitions.
  const tables: LocalBindings['tables'] = new Map();
  for (const [logicalId, resource] of ofType(assembly, 'AWS::DynamoDB::Table')) {
    const name = `${process.env.TABLE_NAME}-${logicalId}`;
    const { input, timeToLive } = createTableFromTemplate(resource, name, `table ${logicalId}`);
    await dynamo.send(new CreateTableCommand(input));
    if (timeToLive) await dynamo.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: timeToLive }));
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: name }));
    tables.set(logicalId, { name, arn: Table!.TableArn!, streamArn: Table!.LatestStreamArn });
  }
  // Local ARNs read arn:aws:dynamodb:ddblocal:000000000000:table/<name>; hand-written ARNs in policies resolve alike.
  const [, partition, , region, account] = (tables.values().next().value?.arn ?? 'arn:aws:dynamodb:ddblocal:000000000000:').split(':');
  // Secrets: a stand-in ARN each, served by a local Secrets Manager endpoint (secretsEndpoint) with a random value.
  const secrets: LocalBindings['secrets'] = new Map(
    ofType(assembly, 'AWS::SecretsManager::Secret').map(([logicalId]) => [
      logicalId,
      `arn:${partition}:secretsmanager:${region}:${account}:secret:${logicalId}`,
    ]),
  );
  // People's sign-in: the user pool and app client ids the functions are given (only Bearer requests use them).
  const references: LocalBindings['references'] = new Map([
    ...ofType(assembly, 'AWS::Cognito::UserPool').map(([logicalId]): [string, string] => [logicalId, `${region}_${logicalId}`]),
    ...ofType(assembly, 'AWS::Cognito::UserPoolClient').map(([logicalId]): [string, string] => [logicalId, `client-${logicalId}`]),
    // The console's domain (CONSOLE_URL of the API's functions: where invitation links point).
    ...ofType(assembly, 'AWS::CloudFront::Distribution').map(([logicalId]): [string, string] => [`${logicalId}.DomainName`, 'console.rehearsal.example']),
    // The SES configuration set the senders name (MAIL_CONFIGURATION_SET).
    ...ofType(assembly, 'AWS::SES::ConfigurationSet').map(([logicalId]): [string, string] => [logicalId, CONFIGURATION_SET_NAME]),
  ]);
  bindings = { partition, region, account, tables, secrets, references };
  secretsEndpoint = await startLocalSecrets();
  sesEndpoint = await startLocalSes();
  receiverUrl = await startReceiver();

  // An account with an admin and a viewer key, in the table the API functions' environments name.
  const apiTables = new Set(routes.flatMap(({ functionId }) => referencedIds(spec(functionId).environment).filter((id) => bindings.tables.has(id))));
  if (apiTables.size !== 1) {
    throw new Error(`the rehearsal creates its API keys in the one table the API functions are given; they name [${[...apiTables].join(', ')}]`);
  }
  store = createStore({ documentClient: createDocumentClient(dynamo), rawClient: dynamo, tableName: bindings.tables.get([...apiTables][0])!.name });
  const now = new Date();
  const owner = await ensureAccount(store, 'rehearsal', now);
  const admin = await issueApiKey(store, { accountId: owner.id, level: 'admin' }, now);
  const viewer = await issueApiKey(store, { accountId: owner.id, level: 'viewer' }, now);
  // Disabled, so never called (a literal public address: no DNS lookup). Its secret is sealed with this
  // process's throwaway key, which webhooks/remove never needs.
  const spare = await createWebhook(store, owner.id, { url: 'https://1.1.1.1/never-called', enabled: false }, now);
  // An owner (the digest on by default) whose sign-in provider verified their address.
  const member = { personKey: `rehearsal-${newId()}`, id: newId(), address: 'owner@rehearsal.example' };
  await store.entities.Member.create({
    personKey: member.personKey,
    id: member.id,
    accountId: owner.id,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    issuer: 'https://issuer.rehearsal.example',
    subject: 'rehearsal-owner',
    role: 'owner',
    email: member.address,
    mailAddress: member.address,
  }).go();
  fixture = {
    keys: { admin: admin.key, viewer: viewer.key },
    spareWebhookId: spare.id,
    member: { personKey: member.personKey, id: member.id, address: member.address },
  } as Fixture;
}, SYNTH_TIMEOUT);

afterAll(async () => {
  await Promise.all(
    [...environments.values()].map(async (environment) => {
      await environment.lambda?.stop();
      await environment.proxy.close();
    }),
  );
  secretsServer?.close();
  sesServer?.close();
  receiverServer?.close();
  dynamo?.destroy();
  streams?.destroy();
});

function spec(functionId: string): FunctionSpec {
  const found = functions.find((fn) => fn.logicalId === functionId);
  if (!found) throw new Error(`${functionId} is not an AWS::Lambda::Function of the template`);
  return found;
}

/** How a function is reached, for messages: its routes, stream mappings and schedules. */
function functionLabel(functionId: string): string {
  const reached = [
    ...routes.filter((route) => route.functionId === functionId).map((route) => `${route.httpMethod} ${route.path}`),
    ...mappings.filter((mapping) => mapping.functionId === functionId).map((mapping) => `stream of ${mapping.tableId}`),
    ...schedules.filter((target) => target.functionId === functionId).map((target) => `schedule ${target.ruleId}`),
    ...subscriptions.filter((subscription) => subscription.functionId === functionId).map((subscription) => `topic ${subscription.topicId}`),
  ];
  return `${functionId} (${reached.join(', ') || 'no trigger'})`;
}

/** The process environment Lambda would give the function, with the template's variables resolved. */
function lambdaEnvironment(fn: FunctionSpec, dynamoEndpoint: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    variables[name] = resolveValue(value, bindings, 'strict', `environment variable ${name} of ${fn.logicalId}`);
  }
  const logging = fn.loggingConfig ?? {};
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    _HANDLER: fn.handler,
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
    AWS_LAMBDA_FUNCTION_NAME: fn.logicalId,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.logicalId}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'rehearsal',
    ...(logging.LogFormat === 'JSON' ? { AWS_LAMBDA_LOG_FORMAT: 'JSON' } : {}),
    ...(logging.ApplicationLogLevel ? { AWS_LAMBDA_LOG_LEVEL: logging.ApplicationLogLevel } : {}),
    LAMBDA_TASK_ROOT: fn.codeDir,
    LAMBDA_RUNTIME_DIR: '/var/runtime',
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    // The execution role's session, as Lambda passes it (DynamoDB Local only reads the key id).
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: 'rehearsal',
    ...variables,
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    // The SDK's per-service endpoint variables: GetSecretValue and SendEmail go to the local stand-ins.
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsEndpoint,
    AWS_ENDPOINT_URL_SESV2: sesEndpoint,
    // The webhook receiver is on 127.0.0.1, which the SSRF guard refuses on AWS.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
}

let receiverUrl = '';
let receiverServer: Server | undefined;

/** The webhook receiver of the rehearsal: answers every delivery 204. */
async function startReceiver(): Promise<string> {
  receiverServer = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((listening) => receiverServer!.listen(0, '127.0.0.1', () => listening()));
  return `http://127.0.0.1:${(receiverServer.address() as AddressInfo).port}/rehearsal-hook`;
}

let secretsEndpoint = '';
let secretsServer: Server | undefined;

/** Answers GetSecretValue for any secret with one random value per secret (what CloudFormation would generate). */
async function startLocalSecrets(): Promise<string> {
  const values = new Map<string, string>();
  secretsServer = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { SecretId } = JSON.parse(body || '{}') as { SecretId?: string };
      if (!values.has(String(SecretId))) values.set(String(SecretId), randomBytes(32).toString('hex'));
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify({ ARN: SecretId, Name: SecretId, SecretString: values.get(String(SecretId)), VersionId: 'rehearsal' }));
    });
  });
  await new Promise<void>((listening) => secretsServer!.listen(0, '127.0.0.1', () => listening()));
  return `http://127.0.0.1:${(secretsServer.address() as AddressInfo).port}`;
}

/** A mail as the SES stand-in received it: the SendEmail request (SES v2's JSON). */
interface SentMail {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[] };
  ConfigurationSetName?: string;
  EmailTags?: { Name: string; Value: string }[];
  Content: { Raw?: { Data: string } };
}

let sesEndpoint = '';
let sesServer: Server | undefined;
/** Every SendEmail request, in order (invocations run one at a time, so each is its invoker's). */
const sentMails: SentMail[] = [];

/** SES v2's SendEmail (POST /v2/email/outbound-emails), recorded and answered with a message id; anything else 400. */
async function startLocalSes(): Promise<string> {
  sesServer = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v2/email/outbound-emails') {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `not rehearsed: ${request.method} ${request.url}` }));
        return;
      }
      sentMails.push(JSON.parse(body));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ MessageId: `rehearsal-${sentMails.length}` }));
    });
  });
  await new Promise<void>((listening) => sesServer!.listen(0, '127.0.0.1', () => listening()));
  return `http://127.0.0.1:${(sesServer.address() as AddressInfo).port}`;
}

/** The member the digest job mails, as the table holds them now. */
async function memberItem(f: Fixture): Promise<Json> {
  const { data } = await store.entities.Member.get({ personKey: f.member.personKey }).go({ consistent: true });
  return data;
}

/** A function's execution environment, started (its init phase run) on first use. */
async function environmentOf(functionId: string, clockOffsetMs = 0): Promise<Environment> {
  const key = clockOffsetMs ? `${functionId}+${clockOffsetMs}ms` : functionId;
  const existing = environments.get(key);
  if (existing) return existing;
  const environment: Environment = { proxy: await RecordingProxy.start(process.env.DYNAMODB_ENDPOINT!) };
  environments.set(key, environment);
  const fn = spec(functionId);
  try {
    const { lambda, initMs } = await LocalLambda.start({
      name: functionLabel(functionId),
      taskRoot: fn.codeDir,
      handler: fn.handler,
      environment: lambdaEnvironment(fn, environment.proxy.endpoint),
      timeoutSeconds: fn.timeoutSeconds,
      // Lambda allows 10 s; a loaded, shared test machine gets more before a slow init counts as broken.
      initTimeoutSeconds: 30,
      clockOffsetMs,
    });
    environment.lambda = lambda;
    timings[`init ${key}`] = initMs;
  } catch (error) {
    environment.initError = (error as Error).message;
  }
  return environment;
}

async function invoke(functionId: string, label: string, event: unknown, clockOffsetMs = 0): Promise<InvocationRecord> {
  const environment = await environmentOf(functionId, clockOffsetMs);
  const before = environment.proxy.calls.length;
  const mailsBefore = sentMails.length;
  const result: Invocation = environment.lambda
    ? await environment.lambda.invoke(event)
    : { ok: false, error: { name: 'InitError', message: environment.initError! }, ms: 0 };
  const record = { functionId, label, result, calls: environment.proxy.calls.slice(before), mails: sentMails.slice(mailsBefore), environment };
  invocations.push(record);
  return record;
}

function failure(record: InvocationRecord, what: string): Error {
  const { environment } = record;
  const error = record.result.ok ? undefined : (record.result.error.stack ?? `${record.result.error.name}: ${record.result.error.message}`);
  return new Error(
    `${record.label} -> ${functionLabel(record.functionId)}: ${what}\n${error ?? JSON.stringify((record.result as Json).value)?.slice(0, 2000)}\n` +
      `--- function log ---\n${environment.lambda?.logs().slice(-4000) ?? ''}`,
  );
}

// ---------------------------------------------------------------- the triggers

function apiViewerRequest(): (event: Json) => Json {
  const [[, distribution]] = ofType(assembly, 'AWS::CloudFront::Distribution');
  const behaviour = distribution.Properties.DistributionConfig.CacheBehaviors.find((candidate: Json) => candidate.PathPattern === `/${stageName}/*`);
  const association = behaviour?.FunctionAssociations?.find((candidate: Json) => candidate.EventType === 'viewer-request');
  if (!association) throw new Error(`the distribution has no viewer-request function on /${stageName}/*`);
  return runInNewContext(`${assembly.resources[refId(association.FunctionARN)!].Properties.FunctionCode}; handler`);
}

/** The path API Gateway is asked for when a client asks the distribution for `routePath` (the edge rewrites the widgets' alias paths). */
function originPath(routePath: string, method: string): string {
  const request = viewerRequest({ viewer: { ip: '203.0.113.10' }, request: { method, uri: `/${stageName}/${routePath}`, headers: {}, querystring: {} } });
  return String(request.uri).slice(stageName.length + 2);
}

function routeFor(routePath: string, method: string): ApiRoute | undefined {
  const asked = originPath(routePath, method);
  return routes.find((route) => route.path === asked && (route.httpMethod === method || route.httpMethod === 'ANY'));
}

async function callOperation(key: string, call: OperationCall): Promise<void> {
  const method = call.method ?? 'POST';
  const routePath = call.path ?? key;
  const route = routeFor(routePath, method);
  if (!route) throw new Error(`OPERATION_CALLS has ${method} ${routePath}, which the template has no route for`);
  const args = JSON.stringify(call.args?.(fixture) ?? []);
  const raw = call.request?.(fixture);
  const headers: Record<string, string> = {
    'Content-Type': raw ? (raw.contentType ?? 'text/plain') : 'application/json',
    'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    'Accept-Language': 'de-DE,de;q=0.9',
    Origin: 'https://example.com',
  };
  if (call.auth !== 'anonymous') headers.Authorization = `API-KEY ${fixture.keys[call.auth]}`;
  const event = apiGatewayProxyEvent({
    httpMethod: method,
    path: route.path,
    stage: stageName,
    headers,
    ...(raw ? { query: raw.query, ...(raw.body === undefined ? {} : { body: raw.body }) } : method === 'GET' ? { query: { $p: args } } : { body: args }),
  });
  const record = await invoke(route.functionId, `${method} ${key}`, event);
  if (!record.result.ok) throw failure(record, 'the invocation failed');
  const status = record.result.value?.statusCode;
  if (call.refusal) {
    const error = record.result.value?.body ? JSON.parse(record.result.value.body).error : undefined;
    if (status !== call.refusal.status || error !== call.refusal.error) {
      throw failure(record, `answered ${status} ${error}, not the expected ${call.refusal.status} ${call.refusal.error}`);
    }
    return;
  }
  if (typeof status !== 'number' || status < 200 || status > 299) throw failure(record, `answered ${status}, not 2xx`);
  const text = record.result.value.body;
  const body = raw ? text : text ? JSON.parse(text) : undefined;
  try {
    await call.keep?.(body, fixture);
  } catch (error) {
    throw failure(record, `unexpected answer ${record.result.value.body}: ${(error as Error).message}`);
  }
}

/**
 * One real batch per stream mapping: the records of the table's stream its filters let
 * through, up to its batch size. Delivery is at least once, so the same batch is then
 * delivered again, as after a retry; both must be accepted whole.
 */
async function deliverStreamBatches(): Promise<void> {
  for (const mapping of mappings) {
    const table = bindings.tables.get(mapping.tableId)!;
    const shards = await readStream(streams, table.streamArn!);
    const batches = shards
      .map(({ shardId, records }) => ({ shardId, records: records.filter((record) => passesFilters(mapping.filterPatterns, record)) }))
      .filter(({ records }) => records.length > 0);
    const total = shards.reduce((sum, { records }) => sum + records.length, 0);
    print(
      `deploy rehearsal: ${batches.reduce((sum, { records }) => sum + records.length, 0)} of ${total} stream records pass the filters of ${mapping.logicalId}`,
    );
    if (batches.length === 0) throw new Error(`no record of ${mapping.tableId}'s stream passes the filters of ${mapping.logicalId}: nothing to deliver`);
    for (const { shardId, records } of batches) {
      const batch = records.slice(0, mapping.batchSize);
      // With a tumbling window Lambda names the shard and the window, and expects the window's state back.
      const windowSeconds = mapping.tumblingWindowSeconds;
      const start = windowSeconds ? Math.floor(Date.now() / (windowSeconds * 1000)) * windowSeconds * 1000 : 0;
      const event = windowSeconds
        ? {
            Records: batch,
            shardId,
            eventSourceARN: table.streamArn,
            window: { start: new Date(start).toISOString(), end: new Date(start + windowSeconds * 1000).toISOString() },
            state: {},
            isFinalInvokeForWindow: false,
            isWindowTerminatedEarly: false,
          }
        : { Records: batch };
      for (const delivery of ['', ', redelivered']) {
        const record = await invoke(mapping.functionId, `stream batch of ${mapping.logicalId} (${batch.length} records${delivery})`, event);
        if (!record.result.ok) throw failure(record, 'the batch failed');
        const reportsFailures = mapping.functionResponseTypes.includes('ReportBatchItemFailures');
        const expected = windowSeconds ? { batchItemFailures: [], state: {} } : { batchItemFailures: [] };
        if (reportsFailures && JSON.stringify(record.result.value) !== JSON.stringify(expected)) {
          throw failure(record, 'reported batch item failures');
        }
      }
    }
  }
}

/**
 * How far a clock must move for last week's digests to be due: they go out from Monday 08:00
 * UTC, so on a Monday before that, to 08:05; otherwise not at all.
 */
function digestDueOffsetMs(now = new Date()): number {
  if (now.getUTCDay() !== 1 || now.getUTCHours() >= DIGEST_HOUR_UTC) return 0;
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DIGEST_HOUR_UTC, 5) - now.getTime();
}

/**
 * Each scheduled job runs now, and once more in an environment whose clock is a week
 * ahead: a job that works on the data of past days (the ranker's daily recount of the
 * rolling windows, once a week has passed) finds little today, and would otherwise first
 * walk its write path a week after the deploy. On a Monday before 08:00 UTC the weekly
 * jobs (cron schedules: the digest) run once more now at that hour, when their rule fires.
 */
async function runSchedules(clockOffsetsMs: number[], only: (target: RuleTarget) => boolean = () => true): Promise<void> {
  for (const target of schedules.filter(only)) {
    if (!target.scheduleExpression) {
      throw new Error(`rule ${target.ruleId} reacts to an event pattern; the rehearsal only knows how to build scheduled events`);
    }
    const ruleArn = `arn:${bindings.partition}:events:${bindings.region}:${bindings.account}:rule/${target.ruleId}`;
    for (const clockOffsetMs of clockOffsetsMs) {
      const event = target.input ?? scheduledEvent(ruleArn, bindings.region, bindings.account, new Date(Date.now() + clockOffsetMs));
      const label = `schedule ${target.ruleId}${clockOffsetMs ? ` (clock ${(clockOffsetMs / DAY_MS).toFixed(2)} days ahead)` : ''}`;
      const record = await invoke(target.functionId, label, event, clockOffsetMs);
      if (!record.result.ok) throw failure(record, 'the scheduled invocation failed');
      if (record.result.value === null || typeof record.result.value !== 'object') throw failure(record, 'answered no result object');
    }
  }
}

/**
 * The member's weekly digest, which the first schedule run of the digest job sent through
 * SES: one mail to the member, from the sender given at deploy, in the stack's configuration
 * set, tagged with the account, with RFC 8058's one-click unsubscribe link on the
 * distribution's domain (HTTPS). Its token is the one the unsubscribe calls then use.
 */
async function takeDigestMail(): Promise<void> {
  const sent = invocations.filter((record) => record.label.startsWith('schedule') && record.mails.length > 0);
  if (sent.length !== 1) {
    const runs = invocations.filter((record) => record.label.startsWith('schedule'));
    throw new Error(
      `one schedule run should have mailed the member, ${sent.length} did:\n${runs.map((record) => failure(record, `${record.mails.length} mails`).message).join('\n')}`,
    );
  }
  expect(sent[0].mails).toHaveLength(1);
  const [mail] = sent[0].mails;
  expect(mail).toMatchObject({
    FromEmailAddress: expect.stringContaining(senderAddress(TEST_MAIL_FROM)!),
    Destination: { ToAddresses: [fixture.member.address] },
    ConfigurationSetName: CONFIGURATION_SET_NAME,
    EmailTags: expect.arrayContaining([{ Name: 'kind', Value: 'digest' }]),
  });
  const raw = Buffer.from(mail.Content.Raw!.Data, 'base64').toString('utf8');
  expect((await simpleParser(raw)).subject).toMatch(/Rehearsal/);
  // The header block, its folded lines unfolded.
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
  const url = new URL(/^List-Unsubscribe: <([^<>]+)>$/im.exec(head)?.[1] ?? 'about:blank');
  expect(`${url.origin}${url.pathname}`).toBe(`https://console.rehearsal.example/${stageName}/mail/unsubscribe`);
  fixture.unsubscribeToken = url.searchParams.get('token') ?? '';
  expect(fixture.unsubscribeToken).not.toBe('');
}

/**
 * One SES event per topic subscription, as SES's event publishing sends it through SNS: a
 * permanent bounce of the member's address (tagged with their account), delivered twice (SNS
 * delivers at least once). The address is then suppressed for the account.
 */
async function deliverTopicMessages(): Promise<void> {
  const accountId = (await memberItem(fixture)).accountId;
  for (const subscription of subscriptions) {
    const topicArn = `arn:${bindings.partition}:sns:${bindings.region}:${bindings.account}:${subscription.topicId}`;
    const bounce = {
      eventType: 'Bounce',
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [{ emailAddress: fixture.member.address, diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
        timestamp: new Date().toISOString(),
      },
      mail: { tags: { account: [accountId], kind: ['digest'], 'ses:configuration-set': [CONFIGURATION_SET_NAME] } },
    };
    for (const delivery of ['', ', redelivered']) {
      const event = snsEvent(topicArn, `${topicArn}:${subscription.logicalId}`, JSON.stringify(bounce));
      const record = await invoke(subscription.functionId, `topic ${subscription.topicId} (a permanent bounce${delivery})`, event);
      if (!record.result.ok) throw failure(record, 'the notification failed');
      expect(record.result.value).toEqual({ suppressed: 1 });
    }
  }
  const { Item } = await store.documentClient.send(
    new GetCommand({ TableName: store.tableName, Key: { pk: `mailsuppress#${accountId}`, sk: fixture.member.address }, ConsistentRead: true }),
  );
  expect(Item).toMatchObject({ reason: 'bounce', detail: 'General: smtp; 550 5.1.1 user unknown' });
}

// ---------------------------------------------------------------- permissions

interface Need extends Permission {
  label: string;
}

/** What each function's role must allow: its recorded requests, and what its event source mappings do with the role. */
function needsOf(functionId: string): Need[] {
  const tableArn = (name: string) =>
    [...bindings.tables.values()].find((table) => table.name === name)?.arn ??
    `arn:${bindings.partition}:dynamodb:${bindings.region}:${bindings.account}:table/${name}`;
  const needs: Need[] = invocations
    .filter((record) => record.functionId === functionId)
    .flatMap((record) =>
      record.calls.flatMap((call) => requiredPermissions(call, tableArn).map((need) => ({ ...need, label: `${record.label}: ${call.action}` }))),
    );
  // SES v2 authorizes a send against the identity it sends as (the sender's address, or the
  // verified domain it is at) and against the configuration set named.
  for (const record of invocations.filter((candidate) => candidate.functionId === functionId)) {
    for (const mail of record.mails) {
      const address = /<([^<>]+)>$/.exec(mail.FromEmailAddress ?? '')?.[1] ?? String(mail.FromEmailAddress);
      const ses = `arn:${bindings.partition}:ses:${bindings.region}:${bindings.account}`;
      const label = `${record.label}: SendEmail`;
      needs.push({ action: 'ses:SendEmail', resource: `${ses}:identity/${address}`, label: `${label} (as the address)` });
      needs.push({ action: 'ses:SendEmail', resource: `${ses}:identity/${address.split('@')[1]}`, label: `${label} (as its domain)` });
      if (mail.ConfigurationSetName) {
        needs.push({ action: 'ses:SendEmail', resource: `${ses}:configuration-set/${mail.ConfigurationSetName}`, label: `${label} (its configuration set)` });
      }
    }
  }
  const onFailure = (destination: Json, label: string) => {
    const destinationId = (destination['Fn::GetAtt'] ?? [])[0];
    const type = assembly.resources[destinationId]?.Type;
    const action = type === 'AWS::SQS::Queue' ? 'sqs:SendMessage' : type === 'AWS::SNS::Topic' ? 'sns:Publish' : undefined;
    if (!action) throw new Error(`${label}: on-failure destination ${JSON.stringify(destination)} is not a queue or topic of the template`);
    needs.push({ action, resource: resolveValue(destination, bindings, 'symbolic', label), label: `${label} (on-failure destination)` });
  };
  for (const mapping of mappings.filter((candidate) => candidate.functionId === functionId)) {
    // Lambda's poller reads the stream with the function's role (AWS Lambda developer guide, DynamoDB event sources).
    const streamArn = bindings.tables.get(mapping.tableId)!.streamArn!;
    const label = `event source mapping ${mapping.logicalId}`;
    for (const action of ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']) needs.push({ action, resource: streamArn, label });
    needs.push({ action: 'dynamodb:ListStreams', resource: '*', label });
    if (mapping.onFailure) onFailure(mapping.onFailure, label);
  }
  // A failed asynchronous invocation (SNS's) goes to its destination with the function's role.
  const asyncDestination = asyncFailureDestinations(assembly).get(functionId);
  if (asyncDestination) onFailure(asyncDestination, 'asynchronous invocations');
  return needs;
}

function statementsOf(functionId: string): { statements: ResolvedStatement[]; unreadable: string[] } {
  const { statements, unreadable } = roleStatements(assembly, spec(functionId).roleId);
  return { statements: resolveStatements(statements, bindings, `role of ${functionId}`), unreadable };
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

// ---------------------------------------------------------------- tests

describe('deploy rehearsal', () => {
  test('every function has a trigger the rehearsal invokes, every operation a call, and each trigger may invoke its function', () => {
    expect(functions.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const triggered = new Set([...routes, ...mappings, ...schedules, ...subscriptions].map((trigger) => trigger.functionId));
    for (const fn of functions) {
      if (!triggered.has(fn.logicalId)) {
        problems.push(`${fn.logicalId}: no API route, stream mapping, schedule or topic subscription reaches it; the rehearsal cannot invoke it`);
      }
      if (!/^nodejs/.test(fn.runtime)) problems.push(`${fn.logicalId}: runtime ${fn.runtime}; the rehearsal runs Node.js functions only`);
      const reserved = Object.keys(fn.environment).filter((name) => RESERVED_ENVIRONMENT.includes(name));
      if (reserved.length > 0) problems.push(`${fn.logicalId}: sets reserved environment variables ${reserved.join(', ')}`);
      const size = Object.entries(fn.environment).reduce((sum, [name, value]) => sum + name.length + JSON.stringify(value).length, 0);
      if (size > MAX_ENVIRONMENT_BYTES) problems.push(`${fn.logicalId}: environment of about ${size} bytes, over Lambda's ${MAX_ENVIRONMENT_BYTES}`);
    }

    // Every function behind a route is reached by a call of OPERATION_CALLS (on any of its routes).
    for (const [key, call] of Object.entries(OPERATION_CALLS)) {
      if (!routeFor(call.path ?? key, call.method ?? 'POST'))
        problems.push(`OPERATION_CALLS: ${call.method ?? 'POST'} ${call.path ?? key} is no route of the template`);
    }
    const called = new Set(Object.entries(OPERATION_CALLS).map(([key, call]) => routeFor(call.path ?? key, call.method ?? 'POST')?.functionId));
    for (const functionId of new Set(routes.map((route) => route.functionId))) {
      if (!called.has(functionId)) {
        problems.push(`${functionLabel(functionId)}: OPERATION_CALLS has no call for it; add one, keyed by its route path`);
      }
    }
    // And the registry's operations are all routes of the template.
    for (const operation of operationList) {
      if (!routeFor(operationPath(operation), 'POST')) problems.push(`operation ${operationPath(operation)} has no POST route in the template`);
    }

    // Who may invoke: API Gateway for route functions, EventBridge for rule targets (mappings use the role).
    const permissions = invokePermissions(assembly);
    const mayInvoke = (functionId: string, principal: string) =>
      permissions.some((permission) => permission.functionId === functionId && permission.principal === principal);
    for (const functionId of new Set(routes.map((route) => route.functionId))) {
      if (!mayInvoke(functionId, 'apigateway.amazonaws.com'))
        problems.push(`${functionLabel(functionId)}: no AWS::Lambda::Permission for apigateway.amazonaws.com`);
    }
    for (const target of schedules) {
      if (!mayInvoke(target.functionId, 'events.amazonaws.com'))
        problems.push(`${functionLabel(target.functionId)}: no AWS::Lambda::Permission for events.amazonaws.com`);
    }
    for (const subscription of subscriptions) {
      if (!mayInvoke(subscription.functionId, 'sns.amazonaws.com'))
        problems.push(`${functionLabel(subscription.functionId)}: no AWS::Lambda::Permission for sns.amazonaws.com`);
    }
    expect(problems).toEqual([]);
  });

  test('every bundle loads (the init phase) in an environment of its own, with the template environment resolved', async () => {
    const started = Date.now();
    // Two at a time: a cold start is mostly CPU, and the machine is shared.
    const queue = functions.map((fn) => fn.logicalId);
    await Promise.all(
      [0, 1].map(async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await environmentOf(next);
      }),
    );
    timings.init = Date.now() - started;
    const failed = [...environments.entries()].filter(([, environment]) => environment.initError).map(([id, environment]) => `${id}: ${environment.initError}`);
    expect(failed).toEqual([]);
  }, 300_000);

  test('one real call per operation and route, one real stream batch per consumer (and its redelivery), each schedule (now and a week ahead) and each topic succeed', async () => {
    const started = Date.now();
    const calls = Object.entries(OPERATION_CALLS);
    for (const [callPath, call] of calls.filter(([, candidate]) => !candidate.afterStream)) await callOperation(callPath, call);
    await deliverStreamBatches();
    // The schedules run now before the calls that read what the stream made (the ranker's top
    // lists) and follow the digest mail's link, and a week ahead after them.
    await runSchedules([0]);
    if (digestDueOffsetMs() > 0) await runSchedules([digestDueOffsetMs()], (target) => String(target.scheduleExpression).startsWith('cron('));
    await takeDigestMail();
    for (const [callPath, call] of calls.filter(([, candidate]) => candidate.afterStream)) await callOperation(callPath, call);
    await deliverTopicMessages();
    await runSchedules([SCHEDULE_CLOCK_AHEAD_DAYS * DAY_MS]);
    timings.scenario = Date.now() - started;

    const invoked = new Set(invocations.map((record) => record.functionId));
    expect(functions.map((fn) => fn.logicalId).filter((id) => !invoked.has(id))).toEqual([]);
  }, 300_000);

  test('the recorders see the requests (projects/create wrote, the digest job mailed), and the policy check can refuse', () => {
    const create = invocations.find((record) => record.label === 'POST projects/create');
    expect(create).toBeDefined();
    const actions = create!.calls.map((call) => call.action);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.some((action) => ['PutItem', 'UpdateItem', 'TransactWriteItems', 'BatchWriteItem'].includes(action))).toBe(true);
    // No function may delete the table: the evaluation is not permissive.
    for (const fn of functions) {
      for (const table of bindings.tables.values()) {
        expect(isAllowed(statementsOf(fn.logicalId).statements, { action: 'dynamodb:DeleteTable', resource: table.arn })).toBe(false);
      }
    }
    // A function that mailed may send as the sender given at deploy, and as no one else.
    const mailed = invocations.find((record) => record.mails.length > 0);
    expect(mailed).toBeDefined();
    const ses = `arn:${bindings.partition}:ses:${bindings.region}:${bindings.account}`;
    const statements = statementsOf(mailed!.functionId).statements;
    expect(isAllowed(statements, { action: 'ses:SendEmail', resource: `${ses}:identity/example.com` })).toBe(true);
    expect(isAllowed(statements, { action: 'ses:SendEmail', resource: `${ses}:identity/other.example` })).toBe(false);
    expect(isAllowed(statements, { action: 'ses:SendEmail', resource: `${ses}:configuration-set/another-set` })).toBe(false);
  });

  test('every DynamoDB request and mail a function made is allowed by its role in the template', () => {
    const missing: string[] = [];
    for (const fn of functions) {
      const { statements, unreadable } = statementsOf(fn.logicalId);
      const denied = new Set<string>();
      for (const need of needsOf(fn.logicalId)) {
        if (!isAllowed(statements, need)) denied.add(`${need.label}: ${need.action} on ${need.resource}`);
      }
      if (denied.size === 0) continue;
      const note = unreadable.length > 0 ? ` (policies not evaluated: ${unreadable.join(', ')})` : '';
      missing.push(`${functionLabel(fn.logicalId)}${note}\n    ${[...denied].join('\n    ')}`);
    }
    if (missing.length > 0) print(`deploy rehearsal: MISSING permissions (each an AccessDenied on AWS):\n  ${missing.join('\n  ')}`);
    expect(missing).toEqual([]);
  });

  test('report: DynamoDB actions granted but never used, and timings', () => {
    // Only reported, never failed: one call per operation does not walk every path of a
    // function (a conflict retry, a second page, an item created on first use...), so an
    // action unused here may still be needed. The list is a prompt to look, not a verdict.
    const lines: string[] = [];
    for (const fn of functions) {
      const used = new Set(needsOf(fn.logicalId).map((need) => need.action));
      const unused = grantedActions(statementsOf(fn.logicalId).statements, 'dynamodb').filter(
        (granted) => ![...used].some((action) => actionMatches(granted, action)),
      );
      if (unused.length > 0) lines.push(`${functionLabel(fn.logicalId)}: ${unused.join(', ')}`);
    }
    const invoked = new Set(invocations.map((record) => record.functionId));
    const incomplete = invoked.size < functions.length ? ` (INCOMPLETE run: ${invoked.size} of ${functions.length} functions invoked)` : '';
    print(`deploy rehearsal: granted DynamoDB actions never used in this run${incomplete}:\n  ${lines.join('\n  ') || '(none)'}`);

    const used = functions.map((fn) => {
      const actions = [
        ...new Set(invocations.filter((record) => record.functionId === fn.logicalId).flatMap((record) => record.calls.map((call) => call.action))),
      ];
      return `${functionLabel(fn.logicalId)}: ${actions.join(', ') || '(none)'}`;
    });
    print(`deploy rehearsal: DynamoDB API actions called per function:\n  ${used.join('\n  ')}`);
    const inits = Object.entries(timings)
      .filter(([name]) => name.startsWith('init '))
      .map(([, ms]) => ms);
    print(
      `deploy rehearsal timings: synth ${(timings.synth / 1000).toFixed(1)} s, init of ${inits.length} functions ${((timings.init ?? 0) / 1000).toFixed(1)} s ` +
        `(each ${Math.min(...inits)}-${Math.max(...inits)} ms), scenario of ${invocations.length} invocations ${((timings.scenario ?? 0) / 1000).toFixed(1)} s ` +
        `(${invocations.reduce((sum, record) => sum + record.calls.length, 0)} DynamoDB requests)`,
    );
    // Where the scenario's time goes: its slowest invocations and their DynamoDB requests.
    const slowest = [...invocations].sort((a, b) => b.result.ms - a.result.ms).slice(0, 8);
    print(
      `deploy rehearsal: slowest invocations:\n  ${slowest.map((record) => `${record.result.ms} ms, ${record.calls.length} DynamoDB requests: ${record.label}`).join('\n  ')}`,
    );
  });
});
