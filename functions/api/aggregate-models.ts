import * as z from 'zod';
import { TOP_PERIODS } from '../../shared/periods';
import { DEFAULT_PAGE_SIZE, id, instant, MAX_PAGE_SIZE, schemaName } from './models';
import { StatPeriodModel } from './response-models';

/**
 * Argument models of the read side of aggregates (SPEC part 2: StatsFilter,
 * ContentSetTopQueryModel, ContentTopQueryModel). Objects are strict, like every model.
 */

/** Default of StatsFilter.period, and of getAggregates' period: everything ever counted. */
export const DEFAULT_STAT_PERIOD = 'lifetime' as const;
/** Default of the top queries' period: the last seven days, today included. */
export const DEFAULT_TOP_PERIOD = 'rolling7d' as const;
/**
 * |shift| bound. Large enough for any real use (100 years of days), small enough that a
 * shifted period stays within the years 0000 to 9999, which bucket keys can write.
 */
export const MAX_SHIFT = 36_600;

export const StatsFilter = z
  .strictObject({
    /** Default `lifetime` (DEFAULT_STAT_PERIOD). */
    period: StatPeriodModel.optional(),
    /** Picks the period containing this instant; default now. */
    reference: instant.optional(),
    /** Whole periods to move by, negative = earlier; default 0. Lifetime ignores it. */
    shift: z.number().int().min(-MAX_SHIFT).max(MAX_SHIFT).optional(),
    /** `previous`: the answer gains the period before (`shift` one less) and the score's change since (docs/api.md, "Scores"). */
    compare: z.literal('previous').optional(),
  })
  .meta({
    id: 'StatsFilter',
    description:
      'The period of getStats: its kind (default lifetime), an instant in it (default now), a shift in whole periods, and compare: "previous" for the period before and the change since.',
  });
export type StatsFilter = z.infer<typeof StatsFilter>;

export const TopPeriodModel = z.enum(TOP_PERIODS).meta({ id: 'TopPeriod', description: 'The periods rankings are kept for.' });

/** Default of the top queries' `$minCount`: fewer responses say too little for best and worst. */
export const DEFAULT_MIN_COUNT = 10;

const topQuery = {
  $size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  projectId: id.optional(),
  period: TopPeriodModel.default(DEFAULT_TOP_PERIOD),
  /** `count`: the most responses; `best` / `worst`: by the score's 95% interval (docs/api.md, "Rankings"). */
  $sort: z
    .enum(['count', 'best', 'worst'])
    .default('count')
    .meta({ description: 'count (default): most responses first; best: by the low end of the score interval, descending; worst: by its high end, ascending.' }),
  /** best and worst leave out entities with fewer responses in the period. */
  $minCount: z
    .number()
    .int()
    .min(1)
    .default(DEFAULT_MIN_COUNT)
    .meta({ description: 'best and worst leave out entities with fewer responses in the period (default 10).' }),
  /** Only sets of this schema (and their items); best and worst need it without contentSetId. */
  schema: schemaName.optional(),
};

export const ContentSetTopQueryModel = z
  .strictObject(topQuery)
  .meta({ id: 'ContentSetTopQueryModel', description: 'Which content sets sets/top ranks: the account or one project, over one period.' });
export const ContentTopQueryModel = z
  .strictObject({ ...topQuery, contentSetId: id.optional() })
  .meta({ id: 'ContentTopQueryModel', description: 'Which content items contents/top ranks: the account, a project or a set, over one period.' });
export type ContentSetTopQueryModel = z.infer<typeof ContentSetTopQueryModel>;
export type ContentTopQueryModel = z.infer<typeof ContentTopQueryModel>;
