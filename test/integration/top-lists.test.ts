import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { currentBuckets, needsFullRecount } from '../../functions/domain/ranking';
import { defaultStore } from '../../functions/store/entity-store';
import { ensureTable } from '../../functions/store/setup';
import { decodeScores, encodeScores, ITEM_PARTS, itemPart, readTopList, writeTopList } from '../../functions/store/top-lists';
import { TOP_PERIODS } from '../../shared/periods';

/**
 * The stored form of a top list on DynamoDB Local: parts of its items, each written part
 * carrying the set's counts, which readers take from the part written last, by the list's
 * write count and not by any clock.
 */
const { store, client, settings } = defaultStore();
const scope = { accountId: `acct-${Math.random().toString(36).slice(2)}`, projectId: 'prj', contentSetId: 'set' };
const now = new Date('2026-11-25T12:00:00Z');
const buckets = currentBuckets(now);

/** `count` in every ranked period, as a list holds it and as a part stores it. */
const counts = (count: number) => TOP_PERIODS.map(() => count);
const counted = (count: number) => counts(count).join('.');

beforeAll(() => ensureTable(client, settings.tableName));

async function putPart(name: string, part: Record<string, unknown>, contentSetId = scope.contentSetId) {
  await store.documentClient.send(
    new PutCommand({
      TableName: settings.tableName,
      Item: { pk: `toplist#${scope.accountId}`, sk: `${scope.projectId}#${contentSetId}#${name}`, ...part },
    }),
  );
}

/** The stored parts of one of the scope's lists, as DynamoDB holds them. */
async function partsOf(contentSetId: string): Promise<Record<string, unknown>[]> {
  const { Items } = await store.documentClient.send(
    new QueryCommand({
      TableName: settings.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `toplist#${scope.accountId}`, ':prefix': `${scope.projectId}#${contentSetId}#` },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

describe('top list parts', () => {
  it('take the set counts of the part with the highest write count, whatever the clocks said', async () => {
    // The second write ran on a clock behind the first's: its part is the older by time.
    await putPart(itemPart('a'), {
      buckets,
      items: { a: counted(1) },
      set: counts(1),
      schema: 'pulse',
      parts: ITEM_PARTS,
      writes: 1,
      version: 1,
      updatedAt: '2026-11-25T12:01:00.000Z',
    });
    await putPart(itemPart('b'), {
      buckets,
      items: { b: counted(2) },
      set: counts(3),
      schema: 'pulse',
      parts: ITEM_PARTS,
      writes: 2,
      version: 1,
      updatedAt: '2026-11-25T12:00:30.000Z',
    });
    const stored = await readTopList(store, scope, { consistent: true });
    expect(stored!.list.set).toEqual(counts(3));
    expect(stored!.writes).toBe(2);
    expect(Object.fromEntries(stored!.list.items)).toEqual({ a: counts(1), b: counts(2) });
  });

  it('take the set counts of the later recount when two runs write parts of their own from one list', async () => {
    const racing = { ...scope, contentSetId: 'racing' };
    // Two pages in different parts, the one of the run that read the counters first in the part that sorts last.
    const ids = Array.from({ length: 40 }, (_, index) => `page-${index}`).sort((a, b) => itemPart(a).localeCompare(itemPart(b)));
    const [fresh, stale] = [ids[0], ids.at(-1)!];
    expect(itemPart(stale) > itemPart(fresh)).toBe(true);
    expect(
      (await writeTopList(store, racing, { buckets, set: counts(1), setVersion: 2, items: new Map([[fresh, counts(1)]]), schema: 'pulse' }, undefined))
        .complete,
    ).toBe(true);
    const stored = (await readTopList(store, racing, { consistent: true }))!;
    // Both runs read this list. The early one recounted the set after a response on `stale`; the
    // late one after another on `fresh` too (two counter writes more), and wrote first.
    const early = { ...stored.list, set: counts(2), setVersion: 4, items: new Map([...stored.list.items, [stale, counts(1)]]) };
    const late = { ...stored.list, set: counts(3), setVersion: 6, items: new Map([[fresh, counts(2)]]) };
    expect(await writeTopList(store, racing, late, stored)).toEqual({ complete: true, written: 1 });
    expect(await writeTopList(store, racing, early, stored)).toEqual({ complete: true, written: 1 });
    const after = (await readTopList(store, racing, { consistent: true }))!;
    // The same write count on both parts: the later counts win, not the part that sorts last.
    expect(after.writes).toBe(2);
    expect([after.list.set, after.list.setVersion]).toEqual([counts(3), 6]);
    expect(Object.fromEntries(after.list.items)).toEqual({ [fresh]: counts(2), [stale]: counts(1) });
  });

  it('write the changed parts only, one more write count, and the set counts in each', async () => {
    const stored = (await readTopList(store, scope, { consistent: true }))!;
    const list = { buckets, set: counts(4), items: new Map([...stored.list.items, ['b', counts(3)]]), schema: 'pulse' };
    expect((await writeTopList(store, scope, list, stored)).complete).toBe(true);
    const after = (await readTopList(store, scope, { consistent: true }))!;
    expect(after.writes).toBe(3);
    expect(after.list.set).toEqual(counts(4));
    // `a`'s part did not change and was not written again.
    expect(after.versions.get(itemPart('a'))).toBe(1);
  });

  it('carry a change of the set counts alone in one part, when no item changed', async () => {
    const stored = (await readTopList(store, scope, { consistent: true }))!;
    expect((await writeTopList(store, scope, { ...stored.list, set: counts(5) }, stored)).complete).toBe(true);
    const after = (await readTopList(store, scope, { consistent: true }))!;
    expect(after.list.set).toEqual(counts(5));
    const written = [...after.versions].filter(([name, version]) => version !== stored.versions.get(name));
    expect(written).toHaveLength(1);
  });

  it("read a list of the layout before day and lifetime were ranked into today's, stale where it knows nothing", async () => {
    const earlier = { ...scope, contentSetId: 'earlier' };
    const earlierBuckets = ['week#2026-11-23', 'month#2026-11', 'year#2026', 'day#2026-11-25', 'day#2026-11-25', 'month#2026-11'];
    await store.documentClient.send(
      new PutCommand({
        TableName: settings.tableName,
        Item: {
          pk: `toplist#${scope.accountId}`,
          sk: `prj#earlier#items#0`,
          buckets: earlierBuckets,
          items: { a: '1.2.3.4.5.6' },
          set: [6, 5, 4, 3, 2, 1],
          writes: 1,
          version: 1,
        },
      }),
    );
    const stored = (await readTopList(store, earlier, { consistent: true }))!;
    const byPeriod = (values: unknown[]) => Object.fromEntries(TOP_PERIODS.map((period, index) => [period, values[index]]));
    expect(byPeriod(stored.list.items.get('a')!)).toEqual({ day: 0, week: 1, month: 2, year: 3, lifetime: 0, rolling7d: 4, rolling28d: 5, rolling12m: 6 });
    expect(byPeriod(stored.list.set)).toEqual({ day: 0, week: 6, month: 5, year: 4, lifetime: 0, rolling7d: 3, rolling28d: 2, rolling12m: 1 });
    expect(byPeriod(stored.list.buckets)).toMatchObject({ day: '', lifetime: '', week: 'week#2026-11-23' });
    expect(needsFullRecount(stored.list, now)).toBe(true);
  });

  it('keep the scores of a schema with one, each bound to the 4 decimals rankings compare, and the schema', async () => {
    const scored = { ...scope, contentSetId: 'scored' };
    const bounds = (low: number, high: number) => TOP_PERIODS.map((period) => (period === 'day' ? null : { low, high }));
    const list = {
      buckets,
      set: counts(3),
      items: new Map([['a', counts(3)]]),
      schema: 'yes-no',
      setScores: bounds(0.1, 0.2),
      scores: new Map([['a', bounds(0.123456789123, -0.5)]]),
    };
    expect((await writeTopList(store, scored, list, undefined)).complete).toBe(true);
    const stored = (await readTopList(store, scored, { consistent: true }))!;
    expect(stored.list).toEqual({ ...list, scores: new Map([['a', bounds(0.1235, -0.5)]]) });
    expect(stored.olderLayout.size).toBe(0);
    expect(needsFullRecount(stored.list, now)).toBe(false);
  });

  it('store bounds in short: a leading 0. as ., a period with the bounds of an earlier one as its index', async () => {
    const short = { ...scope, contentSetId: 'short' };
    const score = (low: number, high: number) => ({ low, high });
    // day, week, month, year, lifetime, rolling7d, rolling28d, rolling12m
    const periods = [null, score(0.25, 0.75), score(0.25, 0.75), score(-0.5, 1), score(0.25, 0.75), score(2, 3.5), score(-0.5, 1), null];
    expect(encodeScores(periods)).toBe(';.25,.75;=1;-.5,1;=1;2,3.5;=3;');
    expect(decodeScores(encodeScores(periods))).toEqual(periods);
    // A part of the release before wrote every bound in full.
    expect(decodeScores(';0.25,0.75;0.25,0.75;-0.5,1;0.25,0.75;2,3.5;-0.5,1;')).toEqual(periods);
    const list = { buckets, set: counts(2), items: new Map([['a', counts(2)]]), schema: 'rating', setScores: periods, scores: new Map([['a', periods]]) };
    expect((await writeTopList(store, short, list, undefined)).complete).toBe(true);
    const [part] = await partsOf('short');
    expect([part.setBounds, part.bounds]).toEqual([';.25,.75;=1;-.5,1;=1;2,3.5;=3;', { a: ';.25,.75;=1;-.5,1;=1;2,3.5;=3;' }]);
    expect((await readTopList(store, short, { consistent: true }))!.list).toEqual(list);
  });

  it('rewrite every part of a list hashed for another number of parts at its next write, keeping each item once', async () => {
    const earlier = { ...scope, contentSetId: 'eight' };
    const ids = Array.from({ length: 40 }, (_, index) => `item-${index}`);
    const bounds = TOP_PERIODS.map(() => ({ low: 0.5, high: 0.75 }));
    const inFull = bounds.map(({ low, high }) => `${low},${high}`).join(';');
    // Eight parts of the release before (no `parts`, bounds in full as `scores`), by the item's index: not where 16 parts hash them.
    await Promise.all(
      Array.from({ length: 8 }, (_, part) => {
        const members = ids.filter((_, index) => index % 8 === part);
        return putPart(
          `items#${part}`,
          {
            buckets,
            items: Object.fromEntries(members.map((id) => [id, counted(2)])),
            scores: Object.fromEntries(members.map((id) => [id, inFull])),
            set: counts(80),
            setScores: inFull,
            schema: 'yes-no',
            writes: 1,
            version: 1,
          },
          'eight',
        );
      }),
    );
    const stored = (await readTopList(store, earlier, { consistent: true }))!;
    expect(stored.olderLayout.size).toBe(8);
    expect(stored.list.items.size).toBe(40);
    expect(stored.list.scores!.get('item-3')).toEqual(bounds);
    expect(needsFullRecount(stored.list, now)).toBe(false);
    // One item changed: every part is written anew, in today's parts, and the parts left empty once.
    const list = { ...stored.list, items: new Map([...stored.list.items, ['item-3', counts(3)]]) };
    expect((await writeTopList(store, earlier, list, stored)).complete).toBe(true);
    const after = (await readTopList(store, earlier, { consistent: true }))!;
    expect(after.olderLayout.size).toBe(0);
    expect(after.list).toEqual(list);
    const earlierParts = Array.from({ length: 8 }, (_, part) => `items#${part}`);
    expect([...after.versions.keys()].sort()).toEqual([...new Set([...ids.map(itemPart), ...earlierParts])].sort());
    // Each item is in one part only.
    const parts = await partsOf('eight');
    expect(parts.flatMap((part) => Object.keys(part.items as object)).sort()).toEqual([...ids].sort());
    expect(parts.every((part) => part.parts === ITEM_PARTS && part.scores === undefined && part.setScores === undefined)).toBe(true);
  });

  it('read a part written before lists named their schema as stale, and rewrite it at the next write even unchanged', async () => {
    const before = { ...scope, contentSetId: 'before-quality' };
    await store.documentClient.send(
      new PutCommand({
        TableName: settings.tableName,
        Item: { pk: `toplist#${scope.accountId}`, sk: 'prj#before-quality#items#0', buckets, items: { a: counted(2) }, set: counts(2), writes: 1, version: 1 },
      }),
    );
    const stored = (await readTopList(store, before, { consistent: true }))!;
    expect(stored.list.items.get('a')).toEqual(counts(2));
    expect(stored.list.schema).toBeUndefined();
    expect(needsFullRecount(stored.list, now)).toBe(true);
    expect([...stored.olderLayout]).toEqual(['items#0']);
    const list = { buckets, set: counts(2), items: stored.list.items, schema: 'pulse' };
    expect((await writeTopList(store, before, list, stored)).complete).toBe(true);
    const after = (await readTopList(store, before, { consistent: true }))!;
    expect([after.list.schema, after.olderLayout.size, after.versions.get('items#0')]).toEqual(['pulse', 0, 2]);
    expect(needsFullRecount(after.list, now)).toBe(false);
  });
});
