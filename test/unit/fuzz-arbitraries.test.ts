import fc from 'fast-check';
import { operationPath } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { answerProblem, argumentsArbitrary, mutatedArguments, positionalNames, validArguments } from '../support/fuzz';

/** The fuzzers' generators (test/support/fuzz.ts) do what test/integration/fuzz.test.ts relies on. */
const ids = {
  'projects:id': ['AAAAAAAAAAAAAAAAAAAAAA'],
  projectId: ['AAAAAAAAAAAAAAAAAAAAAA'],
  url: ['http://127.0.0.1:9/fuzz'],
  email: ['fuzz@example.com'],
  responseId: ['BBBBBBBBBBBBBBBBBBBBBB'],
  feelbackId: ['BBBBBBBBBBBBBBBBBBBBBB'],
};

it('reads the positional argument names of a signature', () => {
  expect(positionalNames({ signature: 'id: string, filter?: StatsFilter' })).toEqual(['id', 'filter']);
  expect(positionalNames({ signature: "{ actor?, format: 'csv' | 'ndjson' }" })).toEqual([undefined]);
  expect(positionalNames({ signature: 'contentSetId: string, rows: { key? | contentId?, value }[]' })).toEqual(['contentSetId', 'rows']);
  expect(positionalNames({ signature: '' })).toEqual([undefined]);
});

/** Each operation's share of valid samples, for the last test. */
const validShares: number[] = [];

it.each(operationList.map((operation) => [operationPath(operation), operation] as const))(
  '%s: valid arguments made from its JSON Schema pass its zod arguments, and the pool names its ids',
  (_, operation) => {
    const samples = fc.sample(argumentsArbitrary(operation, ids, true), { numRuns: 40, seed: 39 });
    const valid = samples.filter((sample) => operation.args.safeParse(sample).success);
    // Cross-field rules (one scope of a list, either ids or an item) are beyond JSON Schema: some samples break them.
    expect(valid.length).toBeGreaterThan(0);
    validShares.push(valid.length / samples.length);
    const seeds = fc.sample(validArguments(operation, ids), { numRuns: 2, seed: 39 });
    expect(seeds.some((seed) => operation.args.safeParse(seed).success)).toBe(true);
  },
);

it('valid arguments of most operations pass their zod arguments nine times in ten', () => {
  expect(validShares).toHaveLength(operationList.length);
  expect(validShares.filter((share) => share >= 0.9).length / validShares.length).toBeGreaterThan(0.8);
});

it('mutations change valid arguments, and the pool fills the fields it names', () => {
  const create = operationList.find((operation) => operationPath(operation) === 'projects/get')!;
  const seeds = fc.sample(validArguments(create, ids), { numRuns: 20, seed: 39 });
  expect(seeds.filter((seed) => seed[0] === 'AAAAAAAAAAAAAAAAAAAAAA').length).toBeGreaterThan(10);
  const mutated = fc.sample(mutatedArguments(create, ids), { numRuns: 50, seed: 39 });
  expect(mutated.filter((args) => create.args.safeParse(args).success).length).toBeLessThan(40);
});

describe('answerProblem', () => {
  const get = operationList.find((operation) => operationPath(operation) === 'projects/get')!;
  const json = 'application/json';
  it('takes ApiError bodies of the status of their code', () => {
    expect(answerProblem(get, 404, JSON.stringify({ error: 'not-found', message: 'Project not found', data: { id: 'x' } }), json)).toBeUndefined();
    expect(answerProblem(get, 400, JSON.stringify({ error: 'bad-request', message: 'Invalid' }), json)).toBeUndefined();
  });
  it.each([
    [500, { error: 'internal-error', message: 'boom' }, json],
    [503, { error: 'unavailable', message: 'later' }, json],
    [404, { error: 'bad-request', message: 'wrong code' }, json],
    [400, { error: 'bad-request' }, json],
    [400, { error: 'bad-request', message: 'm', stack: 'at x' }, json],
    [400, { error: 'bad-request', message: 'm', data: 'text' }, json],
    [400, [], json],
    [431, '', null],
    [400, { error: 'bad-request', message: 'm' }, 'text/html'],
  ])('refuses %s %j (%s)', (status, body, contentType) => {
    expect(answerProblem(get, status, typeof body === 'string' ? body : JSON.stringify(body), contentType)).toEqual(expect.any(String));
  });
  it('checks a success against the result model', () => {
    expect(answerProblem(get, 200, JSON.stringify({ id: 'x' }), json)).toMatch(/result its model refuses/);
  });
});
