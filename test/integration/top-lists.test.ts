import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { currentBuckets } from '../../functions/domain/ranking';
import { defaultStore } from '../../functions/store/entity-store';
import { ensureTable } from '../../functions/store/setup';
import { readTopList, writeTopList } from '../../functions/store/top-lists';

/**
 * The stored form of a top list on DynamoDB Local: parts of its items, each written part
 * carrying the set's counts, which readers take from the part written last, by the list's
 * write count and not by any clock.
 */
const { store, client, settings } = defaultStore();
const scope = { accountId: `acct-${Math.random().toString(36).slice(2)}`, projectId: 'prj', contentSetId: 'set' };
const now = new Date('2026-11-25T12:00:00Z');
const buckets = currentBuckets(now);

beforeAll(() => ensureTable(client, settings.tableName));

async function putPart(name: string, part: Record<string, unknown>) {
  await store.documentClient.send(
    new PutCommand({
      TableName: settings.tableName,
      Item: { pk: `toplist#${scope.accountId}`, sk: `${scope.projectId}#${scope.contentSetId}#${name}`, ...part },
    }),
  );
}

describe('top list parts', () => {
  it('take the set counts of the part with the highest write count, whatever the clocks said', async () => {
    // The second write ran on a clock behind the first's: its part is the older by time.
    await putPart('items#1', { buckets, items: { a: '1.1.1.1.1.1' }, set: [1, 1, 1, 1, 1, 1], writes: 1, version: 1, updatedAt: '2026-11-25T12:01:00.000Z' });
    await putPart('items#2', { buckets, items: { b: '2.2.2.2.2.2' }, set: [3, 3, 3, 3, 3, 3], writes: 2, version: 1, updatedAt: '2026-11-25T12:00:30.000Z' });
    const stored = await readTopList(store, scope, { consistent: true });
    expect(stored!.list.set).toEqual([3, 3, 3, 3, 3, 3]);
    expect(stored!.writes).toBe(2);
    expect(Object.fromEntries(stored!.list.items)).toEqual({ a: [1, 1, 1, 1, 1, 1], b: [2, 2, 2, 2, 2, 2] });
  });

  it('write the changed parts only, one more write count, and the set counts in each', async () => {
    const stored = (await readTopList(store, scope, { consistent: true }))!;
    const list = { buckets, set: [4, 4, 4, 4, 4, 4], items: new Map([...stored.list.items, ['b', [3, 3, 3, 3, 3, 3]]]) };
    expect(await writeTopList(store, scope, list, stored, now)).toBe(true);
    const after = (await readTopList(store, scope, { consistent: true }))!;
    expect(after.writes).toBe(3);
    expect(after.list.set).toEqual([4, 4, 4, 4, 4, 4]);
    // `a`'s part did not change and was not written again.
    expect(after.versions.get('items#1')).toBe(1);
  });

  it('carry a change of the set counts alone in one part, when no item changed', async () => {
    const stored = (await readTopList(store, scope, { consistent: true }))!;
    expect(await writeTopList(store, scope, { ...stored.list, set: [5, 5, 5, 5, 5, 5] }, stored, now)).toBe(true);
    const after = (await readTopList(store, scope, { consistent: true }))!;
    expect(after.list.set).toEqual([5, 5, 5, 5, 5, 5]);
    const written = [...after.versions].filter(([name, version]) => version !== stored.versions.get(name));
    expect(written).toHaveLength(1);
  });
});
