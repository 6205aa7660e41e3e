/**
 * The random and the mutation fuzzer, over every operation of the registry (derived from
 * it: an operation declared later is fuzzed with no edit here), for anonymous, viewer and
 * admin callers, against the local API on DynamoDB Local. Every answer: no 5xx, a failure is
 * an ApiError body, a success agrees with the operation's result model (test/support/fuzz.ts
 * `answerProblem`).
 *
 * - random: argument arrays shaped by the operation's JSON Schema that stray from it at
 *   every level (nasty strings and numbers, other types, missing and unknown fields, deep
 *   nesting), and bodies that are no argument array at all;
 * - mutation: valid argument arrays (real ids of a fixture account, passing the operation's
 *   own zod arguments) with one to three mutations: a place replaced, removed, retyped,
 *   grown past its limits, wrapped, doubled or joined by an unknown field.
 *
 * `npm test` runs FUZZ_RUNS=1 per operation, caller and fuzzer, seeded (FUZZ_SEED, default
 * 39): a few hundred calls. `npm run fuzz` runs 100 of each (FUZZ_RUNS and FUZZ_SEED may be
 * set); a failure names the operation, caller, seed and the arguments fast-check shrank it
 * to. The process is confined to loopback (test/support/loopback-only.ts): made-up webhook
 * URLs and hosts never leave this machine.
 */
import fc from 'fast-check';
import { operationPath, type OperationDeclaration } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { createAccount, createContentSet, startTestApi, succeeded, type AccountKeys, type TestApi } from '../support/api';
import {
  answerProblem,
  argumentsArbitrary,
  CALLERS,
  type Caller,
  FUZZ_RUNS,
  type IdPool,
  mutatedArguments,
  oddBodies,
  seedOf,
  transportsOf,
  type Transport,
} from '../support/fuzz';
import { confineToLoopback } from '../support/loopback-only';
import { anonymousVisitor } from '../support/visitors';

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
process.env.CONSOLE_URL = 'http://localhost:3000';
jest.setTimeout(60_000 + FUZZ_RUNS * CALLERS.length * 5_000);

let api: TestApi;
let account: AccountKeys;
const ids: IdPool = {};
const confinement = confineToLoopback();
/** Answers by status, for the closing line. */
const statuses = new Map<number, number>();

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  account = await createAccount('fuzz');
  const admin = account.admin;
  const projectId = (await succeeded(api, 'projects/create', [{ name: 'Fuzzed' }], admin)).id;
  const setId = await createContentSet(api, admin, projectId, 'yes-no');
  const ratingSetId = await createContentSet(api, admin, projectId, 'rating');
  const item = await succeeded(api, 'contents/create', [{ contentSetId: setId, key: 'https://docs.example/fuzz' }], admin);
  const set = await succeeded(api, 'sets/get', [setId], admin);
  const response = (
    await api.call('responses/create', [{ contentSetId: setId, key: item.key, value: 'y', revokable: true, profiling: { userId: 'fuzz-user' } }])
  ).body;
  // A key the admin may revoke: not one the fuzzer calls with.
  const spare = await succeeded(api, 'keys/create', [{ level: 'viewer', label: 'spare' }], admin);
  const webhook = await succeeded(api, 'webhooks/create', [{ url: 'http://127.0.0.1:9/fuzz', projectId }], admin);
  const invitation = await succeeded(api, 'members/invite', [{ email: 'fuzz@example.com', role: 'viewer' }], admin);
  Object.assign(ids, {
    'projects:id': [projectId],
    projectId: [projectId],
    'sets:id': [setId, ratingSetId],
    contentSetId: [setId, ratingSetId],
    'contents:id': [item.id],
    contentId: [item.id],
    contentItemId: [item.id],
    'responses:id': [response.responseId],
    responseId: [response.responseId],
    feelbackId: [response.responseId],
    revokeToken: [response.revokable.token],
    'keys:id': [spare.id],
    keyId: [spare.id],
    'webhooks:id': [webhook.id],
    webhookId: [webhook.id],
    'members:id': [invitation.invitationId],
    invitationId: [invitation.invitationId],
    token: [invitation.url.split('#')[1]],
    key: [set.key, item.key],
    userId: ['fuzz-user'],
    targetId: [projectId, setId, item.id, spare.id, webhook.id],
    url: ['http://127.0.0.1:9/fuzz'],
    email: ['fuzz@example.com'],
  } satisfies IdPool);
});

afterAll(async () => {
  confinement.restore();
  const counts = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
  process.stdout.write(`fuzz: ${operationList.length} operations, ${FUZZ_RUNS} run(s) each per caller and fuzzer; answers ${counts.join(', ')}\n`);
  await api?.close();
});

async function send(operation: OperationDeclaration, caller: Caller, transport: Transport): Promise<string | undefined> {
  const path = `${api.baseUrl}/${operationPath(operation)}`;
  const key = caller === 'anonymous' ? undefined : account[caller];
  const headers: Record<string, string> = { 'content-type': 'application/json', ...anonymousVisitor({ key }) };
  if (key) headers.authorization = `API-KEY ${key}`;
  const response =
    transport.method === 'GET'
      ? await fetch(`${path}?$p=${encodeURIComponent(transport.query)}`, { headers })
      : await fetch(path, { method: 'POST', headers, body: transport.body });
  const text = await response.text();
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  const problem = answerProblem(operation, response.status, text, response.headers.get('content-type'));
  return problem === undefined ? undefined : `${caller}, ${transport.method}: ${problem}`;
}

async function fuzz(operation: OperationDeclaration, fuzzer: string, calls: (caller: Caller) => fc.Arbitrary<Transport>) {
  for (const caller of CALLERS) {
    await fc.assert(
      fc.asyncProperty(calls(caller), async (transport) => {
        const problem = await send(operation, caller, transport);
        if (problem !== undefined) throw new Error(problem);
      }),
      { seed: seedOf(`${fuzzer} ${operationPath(operation)} ${caller}`), numRuns: FUZZ_RUNS, endOnFailure: true },
    );
  }
}

describe.each(operationList.map((operation) => [operationPath(operation), operation] as const))('%s', (_, operation) => {
  it('random: no 5xx, every failure an ApiError, every success its result model', async () => {
    await fuzz(operation, 'random', () =>
      fc.oneof(
        { weight: 5, arbitrary: argumentsArbitrary(operation, ids, false).chain((args) => transportsOf(operation, args)) },
        { weight: 1, arbitrary: oddBodies },
      ),
    );
  });

  it('mutation: no 5xx, every failure an ApiError, every success its result model', async () => {
    await fuzz(operation, 'mutation', () => mutatedArguments(operation, ids).chain((args) => transportsOf(operation, args)));
  });
});
