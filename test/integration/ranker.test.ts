import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TOP_PERIODS } from '../../shared/periods';
import { ANONYMOUS } from '../../functions/api/auth';
import { refreshTopList, runRanker } from '../../functions/jobs/ranker';
import { createResponse } from '../../functions/operations/response-collection';
import { topContentItems } from '../../functions/operations/top';
import { defaultStore } from '../../functions/store/entity-store';
import type { TableClient } from '../../functions/store/dynamodb-clients';
import { itemPart, minuteKey, readTopList } from '../../functions/store/top-lists';
import { meterClient } from '../../scripts/dynamo-meter';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';

/**
 * The ranker against counters made by the real stream consumer: rankings follow the counts
 * by one run, a rolling window's slide is recounted on the first run of a day without any
 * new response, and concurrent runs on one list lose nothing.
 */
let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let contentSetId: string;
const DAY = 86_400_000;
const { store } = defaultStore();

async function vote(key: string, times: number, at = new Date()) {
  for (let index = 0; index < times; index++) {
    await createResponse(store, ANONYMOUS, { contentSetId, key, value: '+' }, { headers: {} }, at);
  }
}

const ranked = async (period: 'rolling7d' | 'week', now = new Date()) =>
  (await topContentItems(store, owner.accountId, { contentSetId, period, $size: 10, $sort: 'count', $minCount: 1 }, now)).map((entry) => [
    entry.key,
    entry.stats.count,
  ]);

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('ranker');
  projectId = (await api.call('projects/create', [{ name: 'Ranked' }], { key: owner.admin })).body.id;
  contentSetId = await createContentSet(api, owner.admin, projectId, 'pulse');
}, 60_000);
afterAll(() => api.close());

describe('the ranker', () => {
  it('ranks what the consumer counted at its next run, not before, from one change record per batch', async () => {
    await vote('a', 2);
    await api.drainStream({ rank: false });
    expect(await ranked('rolling7d')).toEqual([]);
    const result = await runRanker(store, new Date());
    expect(result.changeRecords).toBeGreaterThanOrEqual(1);
    expect(result.written).toBeGreaterThanOrEqual(1);
    expect(await ranked('rolling7d')).toEqual([['a', 2]]);
    // Nothing changed since: the next run reads back CHANGE_READ_OVERLAP_MS but skips the records the last run read.
    const again = await runRanker(store, new Date());
    expect([again.changeRecords, again.written]).toEqual([0, 0]);
  });

  it('recounts a slid rolling window on the first run of a day, with no new response', async () => {
    await vote('old', 5, new Date(Date.now() - 6 * DAY));
    await vote('b', 3);
    await api.drainStream();
    expect(await ranked('rolling7d')).toEqual([
      ['old', 5],
      ['b', 3],
      ['a', 2],
    ]);
    // Tomorrow, the day of `old`'s responses has left the window: the first run of the day recounts it.
    const tomorrow = new Date(Date.now() + DAY);
    const result = await runRanker(store, tomorrow);
    expect(result.dailyRecount).toBe(true);
    expect(await ranked('rolling7d', tomorrow)).toEqual([
      ['b', 3],
      ['a', 2],
    ]);
    expect((await runRanker(store, tomorrow)).dailyRecount).toBe(false);
  });

  it('loses nothing when two runs rewrite one list at once', async () => {
    await vote('c', 4);
    await vote('d', 1);
    await api.drainStream({ rank: false });
    const items = await contentItemIds(['c', 'd']);
    const scope = { accountId: owner.accountId, projectId, contentSetId };
    const outcomes = await Promise.all([refreshTopList(store, scope, [items.c], new Date()), refreshTopList(store, scope, [items.d], new Date())]);
    // Every part either run wrote was written by one of them first: at least one wrote.
    expect(outcomes.filter((outcome) => outcome.written).length).toBeGreaterThanOrEqual(1);
    const list = await readTopList(store, scope, { consistent: true });
    const SEVEN_DAYS = TOP_PERIODS.indexOf('rolling7d');
    expect(list!.list.items.get(items.c)![SEVEN_DAYS]).toBe(4);
    expect(list!.list.items.get(items.d)![SEVEN_DAYS]).toBe(1);
  });

  it("says that each of two runs wrote when each wrote a part before the other, and the other's retry found its counts there", async () => {
    await vote('e', 2);
    // Ids are random: pages until one is in another part than e's.
    const items = await contentItemIds(['e']);
    for (let page = 0; !items.f; page++) {
      await vote(`f${page}`, 3);
      const { [`f${page}`]: id } = await contentItemIds([`f${page}`]);
      if (itemPart(id) !== itemPart(items.e)) items.f = id;
    }
    await api.drainStream({ rank: false });
    const scope = { accountId: owner.accountId, projectId, contentSetId };
    // Both runs read the list and recount e and f, then their writes meet: the first run's
    // write of e's part goes first, the second run's write of f's part goes first.
    const first = heldWrites();
    const second = heldWrites();
    const runs = Promise.all([
      refreshTopList(first.store, scope, [items.e, items.f], new Date()),
      refreshTopList(second.store, scope, [items.e, items.f], new Date()),
    ]);
    await Promise.all([first.arrived, second.arrived]);
    for (const part of new Set([...first.parts(), ...second.parts()])) {
      const order = part === itemPart(items.f) ? [second, first] : [first, second];
      for (const run of order) await run.release(part);
    }
    const outcomes = await runs;
    // Each lost one write, started over, and found the other's write holding what it counted.
    expect(outcomes).toEqual([
      { written: true, retries: 1 },
      { written: true, retries: 1 },
    ]);
    const list = await readTopList(store, scope, { consistent: true });
    const SEVEN_DAYS = TOP_PERIODS.indexOf('rolling7d');
    expect([list!.list.items.get(items.e)![SEVEN_DAYS], list!.list.items.get(items.f)![SEVEN_DAYS]]).toEqual([2, 3]);
  });

  it('writes a recount that equals what an eventually consistent read of the list returned, when a consistent read holds other counts', async () => {
    const scope = { accountId: owner.accountId, projectId, contentSetId };
    await api.drainStream();
    const before = (await readTopList(store, scope, { consistent: true }))!;
    const { Items: earlier } = await store.documentClient.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `toplist#${owner.accountId}`, ':prefix': `${projectId}#${contentSetId}#` },
        ConsistentRead: true,
      }),
    );
    // A vote is ranked, then removed and counted out: the counts are what they were before it.
    const created = (await api.call('responses/create', [{ contentSetId, key: 'g', value: '+', revokable: true }])).body;
    await api.drainStream();
    const { g } = await contentItemIds(['g']);
    expect((await readTopList(store, scope, { consistent: true }))!.list.items.has(g)).toBe(true);
    expect((await api.call('responses/remove', [{ responseId: created.responseId, revokeToken: created.revokable.token }])).status).toBe(204);
    await api.drainStream({ rank: false });
    // An eventually consistent read that missed the vote's write returns the list as it was before it.
    const lagging: TableClient = {
      ...store,
      documentClient: {
        send: (command: unknown) =>
          command instanceof QueryCommand && !command.input.ConsistentRead && String(command.input.ExpressionAttributeValues?.[':pk']).startsWith('toplist#')
            ? Promise.resolve({ Items: earlier })
            : store.documentClient.send(command as never),
      } as unknown as DynamoDBDocumentClient,
    };
    // With a page that is not a member (no response yet), the run reads the whole list, not the member's part.
    await api.call('contents/create', [{ contentSetId, key: 'unanswered' }], { key: owner.admin });
    const { unanswered } = await contentItemIds(['unanswered']);
    expect((await refreshTopList(lagging, scope, [g, unanswered], new Date())).written).toBe(true);
    const after = (await readTopList(store, scope, { consistent: true }))!;
    expect(after.list.items.has(g)).toBe(false);
    expect(after.list.set).toEqual(before.list.set);
  });

  it("reads and rewrites one part of the list for a response on a member, the set's counts with it", async () => {
    const items = await contentItemIds(['a', 'c']);
    const scope = { accountId: owner.accountId, projectId, contentSetId };
    const before = (await readTopList(store, scope, { consistent: true }))!;
    await vote('a', 1);
    await api.drainStream({ rank: false });
    const meter = meterClient(defaultStore().client);
    const start = meter.snapshot();
    expect((await refreshTopList(store, scope, [items.a], new Date())).written).toBe(true);
    // `a` is a member: the run reads the set, its part (two GetItem) and the counters of `a` and of the
    // set (two Query), not the list; it writes one PutItem: the part holding `a`, no header item of the set's own.
    expect(meter.since(start).commands).toEqual({ GetItemCommand: 2, QueryCommand: 2, PutItemCommand: 1 });
    const after = (await readTopList(store, scope, { consistent: true }))!;
    const SEVEN_DAYS = TOP_PERIODS.indexOf('rolling7d');
    expect(after.list.set[SEVEN_DAYS]).toBe(before.list.set[SEVEN_DAYS] + 1);
    expect(after.list.items.get(items.a)![SEVEN_DAYS]).toBe(before.list.items.get(items.a)![SEVEN_DAYS] + 1);
    expect(after.list.items.get(items.c)).toEqual(before.list.items.get(items.c));
  });

  it("reads a set's and a member's counter items from today on after a run that read them, all of them after a response counted on an earlier day or another process's run", async () => {
    const today = `d#${new Date().toISOString().slice(0, 10)}`;
    await vote('h', 2);
    await api.drainStream();
    const { h } = await contentItemIds(['h']);
    const counted = counterReads();
    const firstReads = async () => Object.fromEntries(counted.reads.splice(0).map(({ pk, from }) => [pk, from]));
    // The last run read them all and kept the days before today.
    await vote('h', 1);
    await api.drainStream({ rank: false });
    await runRanker(counted.store, new Date());
    expect(await firstReads()).toEqual({ [`agg#contentItem#${h}`]: today, [`agg#contentSet#${contentSetId}`]: today });
    // A response counted three days ago: the set's and the page's days are read again, and counted.
    await vote('h', 1, new Date(Date.now() - 3 * DAY));
    await api.drainStream({ rank: false });
    await runRanker(counted.store, new Date());
    expect(Object.values(await firstReads()).every((from) => from < today)).toBe(true);
    expect(await ranked('rolling7d')).toContainEqual(['h', 4]);
    // A run of another process in between (its id in the checkpoint): whatever this one kept is forgotten.
    const { Item: checkpoint } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: { pk: 'ranker', sk: 'checkpoint' } }));
    await store.documentClient.send(new PutCommand({ TableName: store.tableName, Item: { ...checkpoint, run: 'another-container' } }));
    await vote('h', 1);
    await api.drainStream({ rank: false });
    await runRanker(counted.store, new Date());
    expect(Object.values(await firstReads()).every((from) => from < today)).toBe(true);
    expect(await ranked('rolling7d')).toContainEqual(['h', 5]);
  });

  it('names change records by the minute they were written', () => {
    expect(minuteKey(new Date('2026-11-25T10:11:59.999Z'))).toBe('2026-11-25T10:11');
  });
});

/** The table, recording the partition and first sort key of each Query of counter items (`agg#...`). */
function counterReads() {
  const reads: { pk: string; from: string }[] = [];
  const send = (command: unknown) => {
    const values = command instanceof QueryCommand ? command.input.ExpressionAttributeValues : undefined;
    if (String(values?.[':pk']).startsWith('agg#')) reads.push({ pk: String(values![':pk']), from: String(values![':from']) });
    return store.documentClient.send(command as never);
  };
  return { store: { ...store, documentClient: { send } as unknown as DynamoDBDocumentClient } satisfies TableClient, reads };
}

/**
 * The table through a gate that holds a run's first writes of top list parts until the test
 * releases them part by part (later writes pass): `arrived` once the run has sent them.
 */
function heldWrites() {
  const held = new Map<string, () => Promise<void>>();
  let open = false;
  let arrived!: () => void;
  const send = (command: unknown) => {
    const input = command instanceof PutCommand ? command.input : undefined;
    if (open || !String(input?.Item?.pk).startsWith('toplist#')) return store.documentClient.send(command as never);
    return new Promise((resolve, reject) => {
      held.set(String(input!.Item!.sk).replace(/^.*#(items#\d+)$/, '$1'), () => store.documentClient.send(command as never).then(resolve, reject));
      // A run sends all of its writes at once: the others arrive before the next turn.
      if (held.size === 1) setImmediate(() => arrived());
    });
  };
  return {
    store: { ...store, documentClient: { send } as unknown as DynamoDBDocumentClient } satisfies TableClient,
    arrived: new Promise<void>((resolve) => {
      arrived = () => {
        open = true;
        resolve();
      };
    }),
    parts: () => [...held.keys()],
    async release(part: string) {
      await held
        .get(part)?.()
        .catch(() => undefined);
    },
  };
}

async function contentItemIds(keys: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const key of keys) {
    const answer = await api.call('contents/lookup', [key, { contentSetId }], { key: owner.viewer });
    ids[key] = answer.body.find((item: { key: string }) => item.key === key).id;
  }
  return ids;
}
