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
 *    consistently after a write that lost its condition; only the parts of the changed
 *    items when they are all members), recounts the set and the changed items (their
 *    counts per ranked period, from the counters, the days before today as the last run
 *    read them while nothing changed them: PastDays, and for a schema with a score the
 *    bounds of its interval), and every member too when a rolling
 *    window slid since the list was written; merges; writes the list conditionally on the
 *    version it read (another run's write makes it start over; the set's counts are stamped
 *    with their counters' write count, so that two runs at once leave the later recount's;
 *    a list that looks unchanged on the eventually consistent read is read again
 *    consistently before nothing is written);
 * 3. once per UTC day, on its first run, recounts every list whose rolling windows slid,
 *    whether or not it changed (the windows slide without any response);
 * 4. moves the checkpoint.
 *
 * Cost per run: per changed set one GetItem of the set, one Query of its list (or a GetItem
 * of each part of the changed members), one Query per recounted entity (its day items from
 * today on, or from the longest window's first day, and its year items), one PutItem per
 * part of the list that changed (its size in KB, in WRU: 1 for a part of a list of 100);
 * the change records are Queried once. Nothing here grows with the number of responses;
 * the daily recount grows with the number of lists and their members (at most
 * TOP_LIST_DEPTH per period). docs/scaling.md ("Rankings") has the measured figures.
 */
import { resolvePeriod, TOP_PERIODS, type ResolvedPeriod } from '../../shared/periods';
import { mergeTopList, needsFullRecount, sameTopList, type PeriodCounts, type PeriodScores } from '../domain/ranking';
import { hasScore, scoreSample, type AnySchemaConfig, type Schema } from '../domain/schemas';
import { scoreInterval } from '../domain/statistics';
import { logger } from '../observability/logger';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { nonNegative, sumCounters, type Counter } from '../domain/aggregation';
import { BoundedCache } from '../domain/bounded-cache';
import { newId } from '../domain/text';
import {
  aggregatePk,
  counterFromPoint,
  counterWrites,
  daySk,
  pointItemRange,
  pointRecords,
  readCounterItems,
  yearSk,
  type AggregateEntity,
} from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import {
  allTopListKeys,
  itemPart,
  readChangesSinceCheckpoint,
  readTopList,
  readTopListParts,
  saveChangeCheckpoint,
  writeTopList,
  type ChangeReader,
  type ListScope,
} from '../store/top-lists';
import { inParallel } from './parallel';

/** An hour of a backlog per run; with no checkpoint, the last 10 minutes (a fresh table has no older change records). */
const CHANGE_READER: ChangeReader = { checkpointKey: { pk: 'ranker', sk: 'checkpoint' }, maxMinutesPerRun: 60, firstRunLookbackMs: 10 * 60_000 };
const MAX_ATTEMPTS = 5;
/**
 * A run whose changed items of a list are all members, in at most this many parts, reads
 * only those parts (a consistent GetItem each, about 1 RRU for a part of a list of 100)
 * rather than the whole list (4.5 RRU eventually consistent for a list of 100 in 64 parts,
 * more for a long one).
 */
const MEMBER_PARTS_READ = 4;

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
  const today = now.toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  return { sums, days: keys('day'), months: keys('month'), today, yesterday };
}

/**
 * The day items before today of the entities a run recounted, kept for the next runs of
 * this process: the ranker runs every minute in a Lambda container that lives for hours
 * (under `npm start`, in its own process), and a set's month of day items is most of what a
 * run reads (a quiet site's are full: 28 items of 0.8 KB for yes or no, 2.4 KB for eight
 * reactions, every minute). A run reads an entity's items from today on and takes the days
 * before from here while they still are what the counters hold:
 * - kept on the same yesterday (a new day reads them all again, once);
 * - none changed since: a change record naming a set with an earlier `from` than today
 *   drops what is kept of the set and of the items it names (the counters of a batch are
 *   written before its record, and each run reads every record since the last);
 * - the last run was this process's (its run id in the checkpoint): a run elsewhere (another
 *   container, a second run at once) may have read records this one never saw, so a run that
 *   finds another run id forgets everything.
 * Bounded by entries and bytes: past that it reads, as without it.
 */
class PastDays {
  private readonly kept = new BoundedCache<string, { yesterday: string; items: Record<string, unknown>[] }>({
    // 16 MB of items as JSON: about 600 sets of a quiet site's full month, or tens of thousands of
    // pages answered a few times; in a function of 256 MB.
    maxEntries: 100_000,
    maxSize: 16 * 1024 * 1024,
    sizeOf: (value) => JSON.stringify(value.items).length,
  });
  /** The run id this process saved in the checkpoint last. */
  lastRun: string | undefined;

  items(pk: string, yesterday: string): Record<string, unknown>[] | undefined {
    const entry = this.kept.get(pk);
    return entry?.yesterday === yesterday ? entry.items : undefined;
  }

  keep(pk: string, yesterday: string, items: Record<string, unknown>[]): void {
    this.kept.set(pk, { yesterday, items });
  }

  forget(pk: string): void {
    this.kept.delete(pk);
  }

  clear(): void {
    this.kept.clear();
  }
}

const pastDays = new PastDays();

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
  const pk = aggregatePk(entity, entityId);
  const kept = pastDays.items(pk, periods.yesterday);
  const first = pointItemRange('day', periods.days[0], periods.days.at(-1)!).from;
  const range = { from: kept ? daySk(periods.today) : first, to: pointItemRange('month', periods.months[0], periods.months.at(-1)!).to };
  const read = await readCounterItems(store, entity, entityId, range, { consistent: true });
  if (!kept)
    pastDays.keep(
      pk,
      periods.yesterday,
      read.filter((item) => String(item.sk) < daySk(periods.today)),
    );
  const items = kept ? [...kept, ...read] : read;
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
    const recount = new Set(changed);
    const partial = attempt === 1 ? await memberParts(store, scope, recount, now) : undefined;
    const stored = partial ?? (await readTopList(store, scope, { consistent }));
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
    // Parts of a list hold the set's latest counts when their version is the counters' own.
    const unchanged = stored && stored.olderLayout.size === 0 && sameTopList(stored.list, list) && (!partial || stored.list.setVersion === set.version);
    if (unchanged) {
      if (consistent || partial) return { written, retries };
    } else {
      const outcome = await writeTopList(store, scope, list, stored);
      written ||= outcome.written > 0;
      if (outcome.complete) return { written, retries };
      retries++;
    }
    consistent = true;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`the top list of set ${scope.contentSetId} kept changing during ${MAX_ATTEMPTS} attempts`);
  }
}

/**
 * The parts of the list holding `ids`, when each of them is a member of a list whose parts
 * read are of this layout and current (no window to recount): a run on members needs no
 * more of the list. Undefined otherwise (the run reads the whole list).
 */
async function memberParts(store: TableClient, scope: ListScope, ids: Set<string>, now: Date) {
  if (ids.size === 0 || new Set([...ids].map(itemPart)).size > MEMBER_PARTS_READ) return undefined;
  const parts = await readTopListParts(store, scope, ids);
  const members = parts && [...ids].every((id) => parts.list.items.has(id));
  return members && parts.olderLayout.size === 0 && !needsFullRecount(parts.list, now) ? parts : undefined;
}

/** One run of the ranker at `now` (see the header). */
export async function runRanker(store: TableClient, now: Date, options: { concurrency?: number } = {}): Promise<RankerResult> {
  const run = await readChangesSinceCheckpoint(store, CHANGE_READER, now);
  const { checkpoint, from, to, changes, records } = run;
  const today = now.toISOString().slice(0, 10);
  const dailyRecount = checkpoint?.recountedDay !== today;
  // What this process kept of past days holds while its run was the last and no record since changed them (PastDays).
  if (checkpoint?.run === undefined || checkpoint.run !== pastDays.lastRun) pastDays.clear();
  for (const [contentSetId, change] of changes) {
    if (change.from >= today) continue;
    pastDays.forget(aggregatePk('contentSet', contentSetId));
    for (const id of change.items) pastDays.forget(aggregatePk('contentItem', id));
  }
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
  const runId = newId();
  await saveChangeCheckpoint(store, CHANGE_READER, run, now, { recountedDay: dailyRecount ? today : checkpoint?.recountedDay, run: runId });
  pastDays.lastRun = runId;
  if (records > 0 || dailyRecount) logger.info('top lists refreshed', { ...result });
  return result;
}
