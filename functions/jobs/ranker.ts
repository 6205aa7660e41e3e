/**
 * The ranker: keeps the materialised top lists (store/top-lists.ts) within a minute of the
 * counters, off the per-response path. Run every minute on AWS (EventBridge; one run at a
 * time) and every few seconds by `npm start`.
 *
 * A run:
 * 1. reads the change records the counting consumer wrote since the last run (a checkpoint
 *    item), at most an hour of them, so a backlog after downtime is caught up over several
 *    runs; runs read back CHANGE_READ_OVERLAP_MS before the last one's end and skip the
 *    records the last run read there (store/top-lists.ts `readChangesSinceCheckpoint`);
 * 2. per changed set: reads the set (its schema), its list (eventually consistent, then
 *    consistently after a write that lost its condition), recounts the set and the
 *    changed items (their counts per ranked period, from the counters, and for a schema
 *    with a score the bounds of its interval), and every member too when a rolling
 *    window slid since the list was written; merges; writes the list conditionally on the
 *    version it read (another run's write makes it start over; the set's counts are stamped
 *    with their counters' write count, so that two runs at once leave the later recount's;
 *    a list that looks unchanged on the eventually consistent read is read again
 *    consistently before nothing is written);
 * 3. once per UTC day, on its first run, recounts every list whose rolling windows slid,
 *    whether or not it changed (the windows slide without any response);
 * 4. moves the checkpoint.
 *
 * Cost per run: per changed set one GetItem of the set, one Query of its list, one Query per recounted entity
 * (its day and year counter items), one PutItem per part of the list that changed (its
 * size in KB, in WRU); the change records are Queried once. Nothing here grows with the number of responses; the daily recount
 * grows with the number of lists and their members (at most TOP_LIST_DEPTH per period).
 */
import { resolvePeriod, TOP_PERIODS, type ResolvedPeriod } from '../../shared/periods';
import { mergeTopList, needsFullRecount, sameTopList, type PeriodCounts, type PeriodScores } from '../domain/ranking';
import { hasScore, scoreSample, type AnySchemaConfig, type Schema } from '../domain/schemas';
import { scoreInterval } from '../domain/statistics';
import { logger } from '../observability/logger';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { nonNegative, sumCounters, type Counter } from '../domain/aggregation';
import { counterFromPoint, counterWrites, daySk, pointItemRange, pointRecords, readCounterItems, yearSk, type AggregateEntity } from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import {
  allTopListKeys,
  readChangesSinceCheckpoint,
  readTopList,
  saveChangeCheckpoint,
  writeTopList,
  type ChangeReader,
  type ListScope,
} from '../store/top-lists';
import { inParallel } from './parallel';

/** An hour of a backlog per run; with no checkpoint, the last 10 minutes (a fresh table has no older change records). */
const CHANGE_READER: ChangeReader = { checkpointKey: { pk: 'ranker', sk: 'checkpoint' }, maxMinutesPerRun: 60, firstRunLookbackMs: 10 * 60_000 };
const MAX_ATTEMPTS = 5;

export interface RankerResult {
  from: string;
  to: string;
  changeRecords: number;
  lists: number;
  written: number;
  retries: number;
  dailyRecount: boolean;
}

function counterKeys(period: ResolvedPeriod): { granularity: 'day' | 'month'; keys: string[] | 'all' } {
  switch (period.pointGranularity) {
    case 'hour':
      // The day's hours are parts of one day item, whose total is the day's.
      return { granularity: 'day', keys: [period.start.toISOString().slice(0, 10)] };
    case 'day':
    case 'month':
      return { granularity: period.pointGranularity, keys: period.points };
    case 'year':
      return { granularity: 'month', keys: 'all' };
    case 'week':
      throw new Error(`ranked period ${period.period} has week points`);
  }
}

/**
 * The counter keys each ranked period sums as of `now`, resolved once per run: day keys
 * (`day` itself, the calendar periods and windows of day points), month keys (those of
 * month points), or every month of every year item read (lifetime).
 */
function rankedPeriods(now: Date) {
  const sums = TOP_PERIODS.map((period) => counterKeys(resolvePeriod(period, { now })));
  const keys = (granularity: 'day' | 'month') =>
    sums
      .filter((sum) => sum.granularity === granularity && sum.keys !== 'all')
      .flatMap((sum) => sum.keys as string[])
      .sort();
  return { sums, days: keys('day'), months: keys('month') };
}

/**
 * The counters of an entity in every ranked period at `now`: one strongly consistent Query
 * from the first day item of the longest day-point window (a month or 28 days) to the last
 * year item (this year). Day items (`d#`) sort before year items (`y#`), so the range holds
 * both, and every year item of the entity (one per year, from y#0000), which lifetime
 * sums: a read costs per 4 KB, so one Query of a few more items costs less than two.
 * `version`: the writes of the items read (every counted change writes a year item, all of
 * which are read), which orders two recounts of the entity.
 */
async function periodCounters(
  store: TableClient,
  entity: AggregateEntity,
  entityId: string,
  periods: ReturnType<typeof rankedPeriods>,
): Promise<{ counters: Counter[]; version: number }> {
  const range = {
    from: pointItemRange('day', periods.days[0], periods.days.at(-1)!).from,
    to: pointItemRange('month', periods.months[0], periods.months.at(-1)!).to,
  };
  const items = await readCounterItems(store, entity, entityId, range, { consistent: true });
  const points = {
    day: pointRecords(
      items.filter((item) => String(item.sk).startsWith(daySk(''))),
      'day',
    ),
    month: pointRecords(
      items.filter((item) => String(item.sk).startsWith(yearSk(''))),
      'month',
    ),
  };
  const counters = periods.sums.map(({ granularity, keys }) => {
    const records = keys === 'all' ? [...points[granularity].values()] : keys.map((key) => points[granularity].get(key));
    return sumCounters(
      records.map((record) => counterFromPoint(record, 0)),
      0,
    );
  });
  return { counters, version: counterWrites(items) };
}

/** The schema and config of a set, for its scores; undefined when the set is gone. */
async function setShape(store: TableClient, contentSetId: string): Promise<{ schema: Schema; config: AnySchemaConfig } | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: { pk: `set#${contentSetId}`, sk: 'set' } }));
  return Item ? { schema: Item.schema as Schema, config: Item.schemaConfig as AnySchemaConfig } : undefined;
}

type SetShape = Awaited<ReturnType<typeof setShape>>;

/** An entity's counts per ranked period, and the bounds of its score's interval for a schema with a score. */
async function periodCounts(
  store: TableClient,
  entity: AggregateEntity,
  entityId: string,
  periods: ReturnType<typeof rankedPeriods>,
  shape: SetShape,
): Promise<{ counts: PeriodCounts; version: number; scores?: PeriodScores }> {
  const { counters, version } = await periodCounters(store, entity, entityId, periods);
  const counts = counters.map((counter) => nonNegative(counter.count));
  if (!shape || !hasScore(shape.schema)) return { counts, version };
  const scores = counters.map((counter) => {
    const sample = scoreSample(shape.schema, shape.config, counter);
    const interval = sample && scoreInterval(sample);
    return interval ? { low: interval.low, high: interval.high } : null;
  });
  return { counts, version, scores };
}

/**
 * Recounts a set's list: the set, the `changed` items, and every member when a window slid.
 * `written`: whether it wrote any part of the list (also in an attempt that another run
 * interrupted: the run whose last attempt finds its counts already stored did write them).
 */
export async function refreshTopList(
  store: TableClient,
  scope: ListScope,
  changed: Iterable<string>,
  now: Date,
): Promise<{ written: boolean; retries: number }> {
  const periods = rankedPeriods(now);
  const shape = await setShape(store, scope.contentSetId);
  let written = false;
  let consistent = false;
  let retries = 0;
  for (let attempt = 1; ; attempt++) {
    // The first read is eventually consistent (half the read units of the list, the largest
    // read of a run): runs are a minute apart, and a read that missed the last write makes
    // the conditional write fail, so the attempts after it read consistently. A read that
    // missed a write can also make the recount look unchanged (a count that went up and down
    // again): nothing is left unwritten on an eventually consistent read alone.
    const stored = await readTopList(store, scope, { consistent });
    const recount = new Set(changed);
    if (needsFullRecount(stored?.list, now)) for (const id of stored!.list.items.keys()) recount.add(id);
    const items = new Map<string, PeriodCounts>();
    const scores = new Map<string, PeriodScores>();
    await inParallel([...recount], 8, async (id) => {
      const recounted = await periodCounts(store, 'contentItem', id, periods, shape);
      items.set(id, recounted.counts);
      if (recounted.scores) scores.set(id, recounted.scores);
    });
    const set = await periodCounts(store, 'contentSet', scope.contentSetId, periods, shape);
    const list = mergeTopList(
      stored?.list,
      {
        set: set.counts,
        setVersion: set.version,
        items,
        // A set that is gone keeps the schema its list named.
        schema: shape?.schema ?? stored?.list.schema ?? '',
        ...(set.scores ? { setScores: set.scores, scores } : {}),
      },
      now,
    );
    if (stored && stored.olderLayout.size === 0 && sameTopList(stored.list, list)) {
      if (consistent) return { written, retries };
    } else {
      const outcome = await writeTopList(store, scope, list, stored, now);
      written ||= outcome.written > 0;
      if (outcome.complete) return { written, retries };
      retries++;
    }
    consistent = true;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`the top list of set ${scope.contentSetId} kept changing during ${MAX_ATTEMPTS} attempts`);
  }
}

/** One run of the ranker at `now` (see the header). */
export async function runRanker(store: TableClient, now: Date, options: { concurrency?: number } = {}): Promise<RankerResult> {
  const run = await readChangesSinceCheckpoint(store, CHANGE_READER, now);
  const { checkpoint, from, to, changes, records } = run;
  const today = now.toISOString().slice(0, 10);
  const dailyRecount = checkpoint?.recountedDay !== today;
  const work = new Map<string, { scope: ListScope; items: Set<string> }>();
  for (const [contentSetId, change] of changes) work.set(contentSetId, { scope: { ...change, contentSetId }, items: change.items });
  if (dailyRecount) {
    for (const scope of await allTopListKeys(store)) if (!work.has(scope.contentSetId)) work.set(scope.contentSetId, { scope, items: new Set() });
  }
  const result: RankerResult = {
    from: from.toISOString(),
    to: to.toISOString(),
    changeRecords: records,
    lists: work.size,
    written: 0,
    retries: 0,
    dailyRecount,
  };
  await inParallel([...work.values()], options.concurrency ?? 8, async ({ scope, items }) => {
    const outcome = await refreshTopList(store, scope, items, now);
    if (outcome.written) result.written++;
    result.retries += outcome.retries;
  });
  await saveChangeCheckpoint(store, CHANGE_READER, run, now, { recountedDay: dailyRecount ? today : checkpoint?.recountedDay });
  if (records > 0 || dailyRecount) logger.info('top lists refreshed', { ...result });
  return result;
}
