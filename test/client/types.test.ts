import { expectTypeOf } from 'expect-type';
import type { CallerArguments, OperationResult } from '../../functions/api/operation';
import type { OperationName, operations } from '../../functions/api/registry';
import type { StatPeriod } from '../../shared/periods';
import {
  createClient,
  type AggregatedData,
  type ContentItemTopEntry,
  type FeedbackClient,
  type Operations,
  type Project,
  type ResponseWriteResult,
  type Stats,
} from '../../clients/typescript/src';

/**
 * Type-level tests: the client's types are the registry's zod types. `tsc --noEmit` (the
 * first half of `npm test`) fails when they differ; the runtime assertions only keep jest
 * from reporting an empty file.
 */

/** Strict type identity (optional vs required, extra fields, unions all count). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

type RegistryArguments<Name extends OperationName> = CallerArguments<(typeof operations)[Name]>;
type RegistryResult<Name extends OperationName> = OperationResult<(typeof operations)[Name]>;

/**
 * For every operation of the registry, the client has it (indexing Operations fails to
 * compile otherwise) with identical argument and result types; and it has no other.
 */
type Agreement = {
  [Name in OperationName]: [Equal<Operations[Name]['args'], RegistryArguments<Name>>, Equal<Operations[Name]['result'], RegistryResult<Name>>];
};
const agreement: { [Name in OperationName]: [true, true] } = {} as Agreement;
const sameNames: [Equal<keyof Operations, OperationName>] = [true];

describe('client types', () => {
  it('are the registry types (checked by the compiler)', () => {
    expect(agreement).toEqual({});
    expect(sameNames).toEqual([true]);
  });

  it('type a few calls as the registry declares them', () => {
    const client: FeedbackClient = createClient({
      baseUrl: 'http://localhost:3000/v0',
      fetch: (() => Promise.reject(new Error('not called'))) as typeof fetch,
    });

    expectTypeOf(client.projects.create).parameters.toEqualTypeOf<[{ name: string; description?: string }]>();
    expectTypeOf(client.projects.create).returns.resolves.toEqualTypeOf<Project>();
    expectTypeOf<Project['state']>().toEqualTypeOf<'active' | 'archived'>();

    expectTypeOf(client.sets.getStats).returns.resolves.toEqualTypeOf<Stats>();
    expectTypeOf<Stats['previous']>().toEqualTypeOf<AggregatedData | undefined>();
    expectTypeOf(client.sets.getStats).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(client.sets.getStats)
      .parameter(1)
      .toEqualTypeOf<{ period?: StatPeriod; reference?: string; shift?: number; compare?: 'previous' } | null | undefined>();

    expectTypeOf(client.contents.top).returns.resolves.toEqualTypeOf<ContentItemTopEntry[]>();
    expectTypeOf<ContentItemTopEntry['stats']['data']['schema']>().toEqualTypeOf<'pulse' | 'yes-no' | 'reaction' | 'rating' | 'message' | 'tagged-message'>();

    expectTypeOf(client.responses.create).returns.resolves.toEqualTypeOf<ResponseWriteResult>();
    expectTypeOf(client.responses.remove).returns.resolves.toEqualTypeOf<void>();
    expectTypeOf(client.sets.exists).returns.resolves.toEqualTypeOf<boolean>();
    expectTypeOf(client.responses.getAggregates).returns.resolves.toEqualTypeOf<number[]>();

    // Wrong calls do not compile.
    // @ts-expect-error: name is required
    expectTypeOf(client.projects.create).toBeCallableWith({ description: 'no name' });
    // @ts-expect-error: not a period
    expectTypeOf(client.sets.getStats).toBeCallableWith('id', { period: 'decade' });
    // @ts-expect-error: projects has no remove
    expectTypeOf(client.projects.remove).toBeFunction();
    expectTypeOf(client.responses.create).toBeCallableWith({ contentSetId: 'set', key: 'page', value: 'y' });
    expectTypeOf(client.responses.create).toBeCallableWith('set', 'page', 'y');
    expect(typeof client.projects.create).toBe('function');
  });
});
