import * as z from 'zod';
import { StatsFilter } from './aggregate-models';
import type { ErrorCode } from './errors';
import { id, lookupText } from './models';
import { StatsModel } from './result-models';
import { declareOperation, type Resource } from './operation';
import { ThemesFilter, ThemesModel } from './theme-models';

/** Read by viewers, also served on GET. */
const READ = { level: 'viewer', readOnly: true } as const;
/** Changes by admins. */
const CHANGE = { level: 'admin', readOnly: false } as const;

/**
 * The operations the entities projects, sets and contents have in common, declared once:
 * their arguments' shape, result, level and the errors the shape implies. Each resource's
 * module (declarations/) gives what differs: summaries, models, signatures, the errors of
 * its own rules (a key unique in its parent: `conflict`; a parent to find: `not-found`).
 *
 * `entity` names the resource's item in sentences (`a ${entity}`); `model` is its result model.
 */
export function entityDeclarations<const R extends Resource, Model extends z.ZodType>(resource: R, entity: string, model: Model) {
  return {
    create: <Input extends z.ZodType>(spec: { summary: string; input: Input; signature: string; errors: ErrorCode[] }) =>
      declareOperation({
        resource,
        name: 'create',
        summary: spec.summary,
        args: z.tuple([spec.input]),
        signature: spec.signature,
        result: model,
        ...CHANGE,
        errors: spec.errors,
      }),

    get: (summary: string) =>
      declareOperation({ resource, name: 'get', summary, args: z.tuple([id]), signature: 'id: string', result: model, ...READ, errors: ['not-found'] }),

    getStats: () =>
      declareOperation({
        resource,
        name: 'getStats',
        summary: `Aggregated responses of a ${entity} over one period (default lifetime), with one data point per hour, day, month or year of the period.`,
        args: z.tuple([id, StatsFilter.nullish()]),
        signature: 'id: string, filter?: StatsFilter',
        result: StatsModel,
        ...READ,
        errors: ['not-found'],
      }),

    /** Themes and phrases of the entity's messages in a period (issue 40; docs/api.md, "Themes"). */
    themes: () =>
      declareOperation({
        resource,
        name: 'themes',
        summary: `Why people say what they say: the themes and standing-out phrases of a ${entity}'s active messages over one period (default lifetime: the last 400 days), with shares, examples and, with compare "previous", the change since.`,
        args: z.tuple([id, ThemesFilter.nullish()]),
        signature: 'id: string, filter?: ThemesFilter',
        result: ThemesModel,
        ...READ,
        errors: ['not-found'],
      }),

    /** `filtersType` names the filters' type in the signature. */
    lookup: <Filters extends z.ZodType, Entry extends z.ZodType>(spec: { summary: string; filters: Filters; filtersType: string; entry: Entry }) =>
      declareOperation({
        resource,
        name: 'lookup',
        summary: spec.summary,
        args: z.tuple([lookupText, spec.filters.nullish()]),
        signature: `text: string, filters?: ${spec.filtersType}`,
        result: z.array(spec.entry),
        ...READ,
        errors: [],
      }),

    save: <Changes extends z.ZodType>(spec: { summary: string; changes: Changes; signature: string; errors: ErrorCode[] }) =>
      declareOperation({
        resource,
        name: 'save',
        summary: spec.summary,
        args: z.tuple([id, spec.changes]),
        signature: spec.signature,
        result: model,
        ...CHANGE,
        errors: spec.errors,
      }),

    /** Whether an item with a key exists in its parent (sets and contents). */
    exists: <Key extends z.ZodType>(spec: { summary: string; key: Key; signature: string }) =>
      declareOperation({
        resource,
        name: 'exists',
        summary: spec.summary,
        args: z.tuple([spec.key]),
        signature: spec.signature,
        result: z.boolean(),
        ...READ,
        errors: [],
      }),

    /** The items with the most responses in a period (sets and contents); `queryType` names the query's type in the signature. */
    top: <Query extends z.ZodType, Entry extends z.ZodType>(spec: { summary: string; query: Query; queryType: string; entry: Entry }) =>
      declareOperation({
        resource,
        name: 'top',
        summary: spec.summary,
        args: z.tuple([spec.query.nullish()]),
        signature: `query?: ${spec.queryType}`,
        result: z.array(spec.entry),
        ...READ,
        errors: ['not-found'],
      }),
  };
}
