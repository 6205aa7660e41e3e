import { ANONYMOUS } from '../../functions/api/auth';
import type { ResponseCreateModel } from '../../functions/api/response-models';
import { createResponse } from '../../functions/operations/response-collection';
import { editResponse, removeResponse } from '../../functions/operations/response-revocation';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, startTestApi, type AccountKeys, type TestApi, createContentSet } from '../support/api';

/**
 * getStats of projects, sets and items, against DynamoDB Local through the real stream
 * consumer. Responses are written with the domain function and a chosen `now`, so they
 * land in known buckets; most of them are in 2024 and 2025, where calendar periods are
 * fixed and getStats (which reads day/month buckets) is exact for rolling windows too.
 */
let api: TestApi;
let owner: AccountKeys;
let stranger: AccountKeys;
let projectId: string;

const DAY = 86_400_000;

beforeAll(async () => {
  api = await startTestApi();
  [owner, stranger] = await Promise.all([createAccount('stats'), createAccount('stats-stranger')]);
  projectId = (await api.call('projects/create', [{ name: 'Stats' }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

async function createSet(schema: string, schemaConfig?: unknown, inProject = projectId) {
  return createContentSet(api, owner.admin, inProject, schema, { schemaConfig });
}

/** One response at a chosen instant, through the domain function (the API would use the real clock). */
async function respond(contentSetId: string, key: string, value: unknown, at: string | Date) {
  const result = await createResponse(
    defaultStore().store,
    ANONYMOUS,
    { contentSetId, key, value: value as ResponseCreateModel['value'], revokable: true },
    { headers: {} },
    new Date(at),
  );
  return { ...result, at: new Date(at) };
}

async function itemOf(responseId: string): Promise<string> {
  return (await api.call('responses/get', [responseId], { key: owner.viewer })).body.contentItemId;
}

async function stats(resource: 'projects' | 'sets' | 'contents', id: string, filter?: Record<string, unknown>, key = owner.viewer) {
  return api.call(`${resource}/getStats`, filter === undefined ? [id] : [id, filter], { key });
}

async function statsOk(resource: 'projects' | 'sets' | 'contents', id: string, filter?: Record<string, unknown>) {
  const answer = await stats(resource, id, filter);
  expect(answer.status).toBe(200);
  return answer.body;
}

const zeros = (length: number) => new Array(length).fill(0);

/** `length` points, all `empty`, except the given indexes. */
function pointsWith<T>(length: number, empty: T, set: Record<number, T>): T[] {
  return Array.from({ length }, (_, index) => set[index] ?? empty);
}

describe('periods: data points and referenceDate', () => {
  let setId: string;
  let itemId: string;

  beforeAll(async () => {
    setId = await createSet('yes-no');
    const first = await respond(setId, 'page-1', 'y', '2024-02-26T08:15:00Z'); // Monday
    await respond(setId, 'page-1', 'y', '2024-02-29T10:20:00Z'); // leap day, Thursday
    await respond(setId, 'page-1', 'n', '2024-02-29T10:40:00Z');
    await respond(setId, 'page-1', 'y', '2024-02-29T23:59:59Z');
    await respond(setId, 'page-1', 'n', '2024-03-01T00:00:00Z'); // Friday, same week, next month
    await respond(setId, 'page-1', 'y', '2023-12-31T23:00:00Z'); // Sunday, week of 2023-12-25, previous year
    itemId = await itemOf(first.responseId);
    await api.drainStream();
  });

  const thisYear = new Date().getUTCFullYear();
  const lifetimeYears = thisYear - 2023 + 1;

  it.each([
    ['day', { reference: '2024-02-29T12:00:00Z' }, 24, '2024-02-29T00:00:00.000Z', [2, 1], { 10: [1, 1], 23: [1, 0] }],
    ['day', { reference: '2024-02-29T12:00:00+14:00' }, 24, '2024-02-28T00:00:00.000Z', [0, 0], {}],
    ['week', { reference: '2024-02-29' }, 7, '2024-02-26T00:00:00.000Z', [3, 2], { 0: [1, 0], 3: [2, 1], 4: [0, 1] }],
    ['week', { reference: '2024-02-29', shift: -1 }, 7, '2024-02-19T00:00:00.000Z', [0, 0], {}],
    ['week', { reference: '2024-01-01', shift: -1 }, 7, '2023-12-25T00:00:00.000Z', [1, 0], { 6: [1, 0] }],
    ['month', { reference: '2024-02-10T05:00:00Z' }, 29, '2024-02-01T00:00:00.000Z', [3, 1], { 25: [1, 0], 28: [2, 1] }],
    ['month', { reference: '2024-02-10', shift: 1 }, 31, '2024-03-01T00:00:00.000Z', [0, 1], { 0: [0, 1] }],
    ['year', { reference: '2024-07-01' }, 12, '2024-01-01T00:00:00.000Z', [3, 2], { 1: [3, 1], 2: [0, 1] }],
    ['year', { reference: '2024-07-01', shift: -1 }, 12, '2023-01-01T00:00:00.000Z', [1, 0], { 11: [1, 0] }],
    ['lifetime', {}, lifetimeYears, '2023-01-01T00:00:00.000Z', [4, 2], { 0: [1, 0], 1: [3, 2] }],
    ['lifetime', { reference: '2024-06-01', shift: -3 }, 2, '2023-01-01T00:00:00.000Z', [4, 2], { 0: [1, 0], 1: [3, 2] }],
    ['rolling7d', { reference: '2024-02-29T12:00:00Z' }, 7, '2024-02-23T00:00:00.000Z', [3, 1], { 3: [1, 0], 6: [2, 1] }],
    ['rolling7d', { reference: '2024-03-04', shift: -1 }, 7, '2024-02-20T00:00:00.000Z', [1, 0], { 6: [1, 0] }],
    ['rolling28d', { reference: '2024-03-01' }, 28, '2024-02-03T00:00:00.000Z', [3, 2], { 23: [1, 0], 26: [2, 1], 27: [0, 1] }],
    ['rolling12m', { reference: '2024-02-29' }, 12, '2023-03-01T00:00:00.000Z', [4, 1], { 9: [1, 0], 11: [3, 1] }],
    ['rolling12m', { reference: '2024-02-29', shift: 1 }, 12, '2024-03-01T00:00:00.000Z', [0, 1], { 0: [0, 1] }],
  ] as const)('%s %j: %i points from %s', async (period, filter, pointCount, referenceDate, counts, points) => {
    for (const [resource, id] of [
      ['contents', itemId],
      ['sets', setId],
    ] as const) {
      const body = await statsOk(resource, id, { period, ...filter });
      const [yes, no] = counts;
      expect(body).toEqual({
        id: `${resource === 'contents' ? 'contentItem' : 'contentSet'}:${id}:${period}:${referenceDate.slice(0, 10)}`,
        accountId: owner.accountId,
        projectId,
        contentSetId: setId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        entity: resource === 'contents' ? 'contentItem' : 'contentSet',
        entityId: id,
        period,
        referenceDate,
        count: yes + no,
        summary: yes + no > 0 ? Math.round(((yes - no) / (yes + no)) * 1e6) / 1e6 : 0,
        data: {
          schema: 'yes-no',
          period,
          values: counts,
          count: yes + no,
          counts,
          summary: yes + no > 0 ? Math.round(((yes - no) / (yes + no)) * 1e6) / 1e6 : 0,
          points: pointsWith(pointCount, [0, 0], points as Record<number, [number, number]>),
        },
      });
    }
  });

  it('defaults to lifetime, and is also served on GET', async () => {
    const lifetime = await statsOk('contents', itemId, { period: 'lifetime' });
    expect(await statsOk('contents', itemId)).toEqual(lifetime);
    expect(await statsOk('contents', itemId, {})).toEqual(lifetime);
    const viaGet = await api.call('contents/getStats', [itemId, null], { key: owner.viewer, method: 'GET' });
    expect([viaGet.status, viaGet.body]).toEqual([200, lifetime]);
  });

  it('dates the aggregate by its counter items, or by referenceDate when nothing was counted', async () => {
    const before = Date.now();
    const body = await statsOk('sets', setId, { period: 'week', reference: '2024-02-29' });
    // Counter items are written by the consumer at counting time, not at the responses' dates.
    expect(Date.parse(body.createdAt)).toBeLessThanOrEqual(Date.parse(body.updatedAt));
    expect(Date.parse(body.updatedAt)).toBeLessThanOrEqual(before);
    const empty = await statsOk('sets', setId, { period: 'week', reference: '2022-06-01' });
    expect([empty.createdAt, empty.updatedAt]).toEqual([empty.referenceDate, empty.referenceDate]);
  });
});

describe('aggregation of each schema', () => {
  const monday = '2025-05-05';
  const at = (hour: number) => `${monday}T${String(hour).padStart(2, '0')}:30:00Z`;

  async function weekOf(schema: string, values: unknown[], schemaConfig?: unknown) {
    const setId = await createSet(schema, schemaConfig);
    const created = [];
    for (const [index, value] of values.entries()) created.push(await respond(setId, 'page', value, at(9 + index)));
    await api.drainStream();
    const itemId = await itemOf(created[0].responseId);
    const item = await statsOk('contents', itemId, { period: 'week', reference: monday });
    expect(await statsOk('sets', setId, { period: 'week', reference: monday })).toEqual({
      ...item,
      id: item.id.replace(`contentItem:${itemId}`, `contentSet:${setId}`),
      entity: 'contentSet',
      entityId: setId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    return item;
  }

  it('yes-no: yes and no counts, summary from -1 (all no) to +1 (all yes)', async () => {
    const body = await weekOf('yes-no', ['y', 'yes', '+1', 'n']);
    expect(body).toMatchObject({ count: 4, summary: 0.5 });
    expect(body.data).toEqual({
      schema: 'yes-no',
      period: 'week',
      values: [3, 1],
      count: 4,
      counts: [3, 1],
      summary: 0.5,
      points: pointsWith(7, [0, 0], { 0: [3, 1] }),
    });
  });

  it('reaction: counts in option order, mean sentiment and mean intensity', async () => {
    // feeling: happy (1, 0.7), neutral (0, 0.2), sad (-1, 0.7)
    const body = await weekOf('reaction', ['happy', 'sad', 'happy', 'neutral'], { preset: 'feeling' });
    expect(body).toMatchObject({ count: 4, summary: 0.25 });
    expect(body.data).toEqual({
      schema: 'reaction',
      period: 'week',
      values: [2, 1, 1],
      count: 4,
      counts: [2, 1, 1],
      summary: 0.25,
      intensity: 0.575,
      points: pointsWith(7, [[0, 0, 0], 0, 0], { 0: [[2, 1, 1], 0.25, 0.575] }),
    });
  });

  it('reaction with custom options: counts follow the configured order', async () => {
    const options = [
      { value: 'meh', sentiment: -0.2, intensity: 0.1 },
      { value: 'wow', sentiment: 0.9, intensity: 1 },
    ];
    const body = await weekOf('reaction', ['wow', 'wow', 'meh'], { options });
    expect(body.data).toMatchObject({ values: [1, 2], counts: [1, 2], summary: 0.533333, intensity: 0.7 });
  });

  it('rating: a count per rating value, and the mean rating as summary', async () => {
    const body = await weekOf('rating', [5, 4, '4', 1]);
    expect(body).toMatchObject({ count: 4, summary: 3.5 });
    expect(body.data).toEqual({
      schema: 'rating',
      period: 'week',
      values: [1, 0, 0, 2, 1],
      count: 4,
      summary: 3.5,
      points: pointsWith(7, [0, 0], { 0: [4, 3.5] }),
    });
  });

  it('rating with steps: one value per step, in order', async () => {
    const body = await weekOf('rating', [0, 0.5, 0.5, 2], { min: 0, max: 2, step: 0.5 });
    expect(body.data).toMatchObject({ values: [1, 2, 0, 0, 1], count: 4, summary: 0.75 });
  });

  it('tagged-message: counts per tag and mean sentiment', async () => {
    // default tags: idea (0.5), error (-1), other (0)
    const body = await weekOf('tagged-message', [{ tag: 'idea', message: 'dark mode' }, { tag: 'other' }, { tag: 'idea', message: 'search' }]);
    expect(body).toMatchObject({ count: 3, summary: 0.333333 });
    expect(body.data).toEqual({
      schema: 'tagged-message',
      period: 'week',
      values: [2, 0, 1],
      count: 3,
      counts: [2, 0, 1],
      summary: 0.333333,
      points: pointsWith(7, [[0, 0, 0], 0], { 0: [[2, 0, 1], 0.333333] }),
    });
  });

  it('pulse and message: a single count, a count per point, and no summary', async () => {
    const pulse = await weekOf('pulse', ['+', '+', '+']);
    expect(pulse.data).toEqual({ schema: 'pulse', period: 'week', values: [3], count: 3, points: [3, 0, 0, 0, 0, 0, 0] });
    expect(pulse).not.toHaveProperty('summary');
    expect(pulse.count).toBe(3);
    const message = await weekOf('message', ['Thanks', 'Typo on line 3']);
    expect(message.data).toEqual({ schema: 'message', period: 'week', values: [2], count: 2, points: [2, 0, 0, 0, 0, 0, 0] });
    expect(message).not.toHaveProperty('summary');
  });
});

describe('edits and removals', () => {
  it('an edit moves the weight to the new value, a removal takes it out', async () => {
    const setId = await createSet('reaction', { preset: 'feeling' });
    const store = defaultStore().store;
    const t = Date.parse('2025-06-10T10:00:00Z');
    const a = await respond(setId, 'page', 'happy', new Date(t));
    const b = await respond(setId, 'page', 'happy', new Date(t + 1000));
    await respond(setId, 'page', 'neutral', new Date(t + 2000));
    const itemId = await itemOf(a.responseId);
    await api.drainStream();
    const filter = { period: 'day', reference: '2025-06-10' };
    expect((await statsOk('contents', itemId, filter)).data).toMatchObject({ values: [2, 1, 0], count: 3, summary: 0.666667 });

    await editResponse(store, ANONYMOUS, { responseId: a.responseId, revokeToken: a.revokable!.token, value: 'sad' }, new Date(t + 60_000));
    await api.drainStream();
    const edited = await statsOk('contents', itemId, filter);
    expect(edited.data).toMatchObject({ values: [1, 1, 1], count: 3, summary: 0 });
    // Counted in the hour the response was created, not the hour it was edited.
    expect(edited.data.points[10]).toEqual([[1, 1, 1], 0, 0.533333]);

    await removeResponse(store, ANONYMOUS, { responseId: b.responseId, revokeToken: b.revokable!.token }, new Date(t + 120_000));
    await api.drainStream();
    const removed = await statsOk('contents', itemId, filter);
    expect(removed.data).toMatchObject({ values: [0, 1, 1], count: 2, summary: -0.5, intensity: 0.45 });
    expect(removed).toMatchObject({ count: 2, summary: -0.5 });
    expect((await statsOk('sets', setId, { period: 'lifetime' })).data.values).toEqual([0, 1, 1]);
  });

  it('removing every response brings the counts back to zero', async () => {
    const setId = await createSet('yes-no');
    const store = defaultStore().store;
    const created = [await respond(setId, 'p', 'y', '2025-07-01T12:00:00Z'), await respond(setId, 'p', 'n', '2025-07-01T12:00:01Z')];
    for (const response of created) {
      await removeResponse(store, ANONYMOUS, { responseId: response.responseId, revokeToken: response.revokable!.token }, new Date('2025-07-01T12:05:00Z'));
    }
    await api.drainStream();
    const body = await statsOk('sets', setId, { period: 'month', reference: '2025-07-01' });
    expect(body).toMatchObject({ count: 0, summary: 0, data: { values: [0, 0], counts: [0, 0], count: 0 } });
  });
});

describe('entities without responses', () => {
  it('are zeros of the right shape, not errors', async () => {
    const emptyProject = (await api.call('projects/create', [{ name: 'Empty' }], { key: owner.admin })).body.id;
    const setId = await createSet('reaction', undefined, emptyProject); // github preset: 8 reactions
    const item = (await api.call('contents/create', [{ contentSetId: setId, key: 'nobody-here' }], { key: owner.admin })).body;
    await api.drainStream();

    const project = await statsOk('projects', emptyProject);
    const thisYear = new Date().getUTCFullYear();
    expect(project).toEqual({
      id: `project:${emptyProject}:lifetime:${thisYear}-01-01`,
      accountId: owner.accountId,
      projectId: emptyProject,
      createdAt: `${thisYear}-01-01T00:00:00.000Z`,
      updatedAt: `${thisYear}-01-01T00:00:00.000Z`,
      entity: 'project',
      entityId: emptyProject,
      period: 'lifetime',
      referenceDate: `${thisYear}-01-01T00:00:00.000Z`,
      count: 0,
      data: { schema: 'pulse', period: 'lifetime', values: [0], count: 0, points: [0] },
    });
    for (const [resource, id] of [
      ['sets', setId],
      ['contents', item.id],
    ] as const) {
      const body = await statsOk(resource, id, { period: 'week' });
      expect(body).toMatchObject({ count: 0, summary: 0 });
      expect(body.data).toEqual({
        schema: 'reaction',
        period: 'week',
        values: zeros(8),
        count: 0,
        counts: zeros(8),
        summary: 0,
        intensity: 0,
        points: pointsWith(7, [zeros(8), 0, 0], {}),
      });
    }
  });
});

describe('project stats', () => {
  it('count the responses of every set, whatever their schema', async () => {
    const otherProject = (await api.call('projects/create', [{ name: 'Mixed' }], { key: owner.admin })).body.id;
    const sets = {
      yesNo: await createSet('yes-no', undefined, otherProject),
      rating: await createSet('rating', undefined, otherProject),
      tagged: await createSet('tagged-message', undefined, otherProject),
      pulse: await createSet('pulse', undefined, otherProject),
    };
    await respond(sets.yesNo, 'a', 'y', '2025-03-03T10:00:00Z');
    await respond(sets.yesNo, 'b', 'n', '2025-03-04T10:00:00Z');
    await respond(sets.rating, 'a', 3, '2025-03-04T11:00:00Z');
    await respond(sets.tagged, 'a', { tag: 'error', message: 'broken link' }, '2025-03-09T23:00:00Z');
    await respond(sets.pulse, 'a', '+', '2025-03-10T00:00:00Z'); // next week
    await respond(sets.pulse, 'a', '+', '2024-12-31T10:00:00Z'); // previous year
    await api.drainStream();

    const week = await statsOk('projects', otherProject, { period: 'week', reference: '2025-03-05' });
    expect(week).toMatchObject({ entity: 'project', entityId: otherProject, projectId: otherProject, count: 4, referenceDate: '2025-03-03T00:00:00.000Z' });
    expect(week).not.toHaveProperty('contentSetId');
    expect(week).not.toHaveProperty('summary');
    expect(week.data).toEqual({ schema: 'pulse', period: 'week', values: [4], count: 4, points: [1, 2, 0, 0, 0, 0, 1] });
    // A project's day is its 24 hours, whatever the schemas of its sets.
    const day = await statsOk('projects', otherProject, { period: 'day', reference: '2025-03-04' });
    expect(day.data).toEqual({ schema: 'pulse', period: 'day', values: [2], count: 2, points: pointsWith(24, 0, { 10: 1, 11: 1 }) });
    expect((await statsOk('projects', otherProject, { period: 'month', reference: '2025-03-31' })).count).toBe(5);
    expect((await statsOk('projects', otherProject, { period: 'year', reference: '2025-01-01' })).count).toBe(5);
    const lifetime = await statsOk('projects', otherProject);
    expect(lifetime).toMatchObject({ count: 6, referenceDate: '2024-01-01T00:00:00.000Z' });
  });
});

describe('rolling windows around today', () => {
  it('cover the last 7, 28 days and 12 months, today included', async () => {
    const setId = await createSet('pulse');
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const daysAgo = [0, 2, 6, 7, 13, 27, 28, 400];
    for (const days of daysAgo) await respond(setId, 'page', '+', new Date(today + 60_000 - days * DAY));
    await api.drainStream();
    const count = async (filter: Record<string, unknown>) => (await statsOk('sets', setId, filter)).count;
    const seven = await statsOk('sets', setId, { period: 'rolling7d' });
    expect(seven).toMatchObject({ count: 3, referenceDate: new Date(today - 6 * DAY).toISOString() });
    expect(seven.data).toEqual({ schema: 'pulse', period: 'rolling7d', values: [3], count: 3, points: [1, 0, 0, 0, 1, 0, 1] });
    expect(await count({ period: 'rolling7d', shift: -1 })).toBe(2); // 7 and 13 days ago
    expect(await count({ period: 'rolling7d', shift: -2 })).toBe(0);
    expect(await count({ period: 'rolling28d' })).toBe(6);
    expect(await count({ period: 'rolling28d', shift: -1 })).toBe(1);
    const twelve = await statsOk('sets', setId, { period: 'rolling12m' });
    expect(twelve.data.values).toEqual([7]);
    expect(twelve.referenceDate.slice(0, 7)).toBe(
      new Date(Date.UTC(new Date(today).getUTCFullYear(), new Date(today).getUTCMonth() - 11, 1)).toISOString().slice(0, 7),
    );
    expect(await count({ period: 'day' })).toBe(1);
  });
});

describe('compare: previous', () => {
  // Weeks of June 2025: the current one from Monday 9, the previous from Monday 2.
  const current = { period: 'week', reference: '2025-06-11', compare: 'previous' };
  let compareProject: string;
  let yesNoSet: string;
  let ratingSet: string;
  let pulseSet: string;
  let ratingItem: string;

  beforeAll(async () => {
    compareProject = (await api.call('projects/create', [{ name: 'Compare' }], { key: owner.admin })).body.id;
    [yesNoSet, ratingSet, pulseSet] = await Promise.all([
      createSet('yes-no', undefined, compareProject),
      createSet('rating', undefined, compareProject),
      createSet('pulse', undefined, compareProject),
    ]);
    const writes: Promise<unknown>[] = [];
    // Newcombe (1998b) example (b): 9 of 10 this week against 3 of 10 the week before.
    for (let index = 0; index < 10; index++) {
      writes.push(respond(yesNoSet, 'page', index < 9 ? 'y' : 'n', `2025-06-1${index % 5}T10:00:00Z`));
      writes.push(respond(yesNoSet, 'page', index < 3 ? 'y' : 'n', `2025-06-0${2 + (index % 5)}T10:00:00Z`));
    }
    // Ratings 5, 5, 4, 4, 1 against 2, 2, 3, 3, 3 (SciPy's Welch interval: -0.8062 to 3.2062).
    writes.push(...[5, 5, 4, 4, 1].map((rating, index) => respond(ratingSet, 'page', rating, `2025-06-1${index}T12:00:00Z`)));
    writes.push(...[2, 2, 3, 3, 3].map((rating, index) => respond(ratingSet, 'page', rating, `2025-06-0${2 + index}T12:00:00Z`)));
    writes.push(respond(pulseSet, 'page', '+', '2025-06-12T08:00:00Z'));
    await Promise.all(writes);
    ratingItem = await itemOf((await respond(ratingSet, 'page', 5, '2025-01-01T00:00:00Z')).responseId);
    await api.drainStream();
  });

  it("adds the previous period, as shift -1 gives it, and the change of a share by Newcombe's interval", async () => {
    const answer = await statsOk('sets', yesNoSet, current);
    expect(answer.count).toBe(10);
    const { compare: _compare, ...plain } = current;
    expect(answer.previous).toEqual(await statsOk('sets', yesNoSet, { ...plain, shift: -1 }));
    expect(answer.change).toEqual({
      delta: expect.closeTo(0.6, 9),
      low: expect.closeTo(0.1705, 4),
      high: expect.closeTo(0.809, 4),
      significant: true,
      method: 'newcombe',
    });
    expect(answer).toEqual({ ...(await statsOk('sets', yesNoSet, plain)), previous: answer.previous, change: answer.change });
  });

  it("compares means by Welch's interval, on an item too", async () => {
    const welch = { delta: expect.closeTo(1.2, 9), low: expect.closeTo(-0.8062, 4), high: expect.closeTo(3.2062, 4), significant: false, method: 'welch' };
    expect((await statsOk('sets', ratingSet, current)).change).toEqual(welch);
    expect((await statsOk('contents', ratingItem, current)).change).toEqual(welch);
  });

  it('compares only the counts of schemas without a score and of projects', async () => {
    expect((await statsOk('sets', pulseSet, current)).change).toEqual({ delta: 1, low: null, high: null, significant: null, method: 'count' });
    const project = await statsOk('projects', compareProject, current);
    expect([project.count, project.previous.count]).toEqual([16, 15]);
    expect(project.change).toEqual({ delta: 1, low: null, high: null, significant: null, method: 'count' });
  });

  it('has no change when a period counted nothing, and nothing more without compare', async () => {
    const empty = await statsOk('sets', yesNoSet, { ...current, reference: '2025-06-18' }); // the week after
    expect([empty.count, empty.previous.count, empty.change]).toEqual([0, 10, null]);
    const plain = await statsOk('sets', yesNoSet, { period: 'week', reference: '2025-06-11' });
    expect(plain).not.toHaveProperty('previous');
    expect(plain).not.toHaveProperty('change');
  });

  it('refuses to compare lifetime, which has no previous period', async () => {
    const answer = await stats('sets', yesNoSet, { compare: 'previous' });
    expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
    expect(answer.body.data.fields.map((field: { path: string }) => field.path)).toEqual(['args.1.compare']);
    const unknown = await stats('sets', yesNoSet, { period: 'week', compare: 'next' });
    expect(unknown.body.data.fields.map((field: { path: string }) => field.path)).toContain('args.1.compare');
  });
});

describe('access and validation', () => {
  let setId: string;
  let itemId: string;

  beforeAll(async () => {
    setId = await createSet('yes-no');
    itemId = await itemOf((await respond(setId, 'x', 'y', '2025-01-01T00:00:00Z')).responseId);
  });

  it("reports another account's and unknown entities as not-found", async () => {
    for (const [resource, id] of [
      ['projects', projectId],
      ['sets', setId],
      ['contents', itemId],
    ] as const) {
      const foreign = await stats(resource, id, undefined, stranger.viewer);
      expect([foreign.status, foreign.body.error]).toEqual([404, 'not-found']);
      const unknown = await stats(resource, 'A'.repeat(22));
      expect([unknown.status, unknown.body.error]).toEqual([404, 'not-found']);
      const anonymous = await api.call(`${resource}/getStats`, [id]);
      expect([anonymous.status, anonymous.body.error]).toEqual([401, 'unauthorized']);
      expect((await stats(resource, id, undefined, owner.admin)).status).toBe(200);
    }
  });

  it.each([
    ['a reference that is no date', { reference: 'yesterday' }, 'args.1.reference'],
    ['an impossible date', { reference: '2025-02-30' }, 'args.1.reference'],
    ['a date-time without offset', { reference: '2025-02-03T10:00:00' }, 'args.1.reference'],
    ['a reference that is a number', { reference: 1700000000000 }, 'args.1.reference'],
    ['a fractional shift', { shift: 1.5 }, 'args.1.shift'],
    ['a shift given as text', { shift: '-1' }, 'args.1.shift'],
    ['an unknown period', { period: 'decade' }, 'args.1.period'],
    ['an unknown field', { from: '2025-01-01' }, 'args.1'],
    ['a period beyond year 9999', { period: 'rolling12m', shift: 36_000 }, 'args.1'],
    ['a day after 9999-12-31', { period: 'day', reference: '9999-12-31', shift: 1 }, 'args.1'],
  ])('refuses %s with bad-request', async (_case, filter, path) => {
    for (const resource of ['projects', 'sets', 'contents'] as const) {
      const id = resource === 'projects' ? projectId : resource === 'sets' ? setId : itemId;
      const answer = await stats(resource, id, filter);
      expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
      expect(answer.body.data.fields.map((field: { path: string }) => field.path)).toContain(path);
    }
  });

  it('refuses a missing id and extra arguments', async () => {
    expect((await api.call('sets/getStats', [], { key: owner.viewer })).status).toBe(400);
    expect((await api.call('sets/getStats', [setId, {}, 1], { key: owner.viewer })).status).toBe(400);
  });
});
