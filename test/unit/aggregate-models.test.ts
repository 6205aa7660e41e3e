import { ContentSetTopQueryModel, ContentTopQueryModel, StatsFilter } from '../../functions/api/aggregate-models';
import { resolvePeriod } from '../../shared/periods';
import { aggregatedData, periodRequest, type AggregateSubject } from '../../functions/operations/stats';

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.path.join('.'));

describe('StatsFilter', () => {
  it('accepts an empty filter and every documented field', () => {
    expect(StatsFilter.parse({})).toEqual({});
    expect(StatsFilter.parse({ period: 'rolling28d', reference: '2026-11-16T10:00:00+02:00', shift: -3 })).toEqual({
      period: 'rolling28d',
      reference: '2026-11-16T08:00:00.000Z',
      shift: -3,
    });
    expect(StatsFilter.parse({ reference: '2026-11-16' }).reference).toBe('2026-11-16T00:00:00.000Z');
  });

  it.each([
    [{ period: 'hour' }, 'period'],
    [{ reference: '16/11/2026' }, 'reference'],
    [{ reference: '2026-11-16T10:00:00' }, 'reference'],
    [{ reference: '2026-13-01' }, 'reference'],
    [{ shift: 0.5 }, 'shift'],
    [{ shift: 1e9 }, 'shift'],
    [{ shift: null }, 'shift'],
    [{ periods: 'day' }, ''],
  ])('refuses %j at %s', (filter, path) => {
    expect(paths(StatsFilter.safeParse(filter))).toEqual([path]);
  });
});

describe('top query models', () => {
  it('default $size to 10, period to rolling7d, $sort to count and $minCount to 10', () => {
    expect(ContentSetTopQueryModel.parse({})).toEqual({ $size: 10, period: 'rolling7d', $sort: 'count', $minCount: 10 });
    expect(ContentTopQueryModel.parse({ contentSetId: 's', projectId: 'p', $size: 100, period: 'year', $sort: 'worst', $minCount: 1 })).toEqual({
      $size: 100,
      period: 'year',
      $sort: 'worst',
      $minCount: 1,
      contentSetId: 's',
      projectId: 'p',
    });
  });

  it.each([
    [ContentSetTopQueryModel, { contentSetId: 's' }, ''],
    // Every period the console offers is ranked (day and lifetime too); others are refused.
    [ContentSetTopQueryModel, { period: 'hour' }, 'period'],
    [ContentTopQueryModel, { period: 'decade' }, 'period'],
    [ContentTopQueryModel, { $size: 101 }, '$size'],
    [ContentTopQueryModel, { $size: 0 }, '$size'],
    [ContentTopQueryModel, { projectId: '' }, 'projectId'],
  ])('refuse bad queries (%#)', (model, query, path) => {
    expect(paths(model.safeParse(query))).toEqual([path]);
  });
});

describe('periodRequest', () => {
  it('defaults to lifetime and reads the reference as a date', () => {
    const now = new Date('2026-11-22T09:00:00Z');
    expect(periodRequest(undefined, now)).toEqual({ period: 'lifetime', reference: undefined, shift: undefined, now });
    expect(periodRequest({ period: 'day', reference: '2026-01-02', shift: 1 }, now)).toEqual({
      period: 'day',
      reference: new Date('2026-01-02T00:00:00Z'),
      shift: 1,
      now,
    });
  });
});

describe('aggregatedData', () => {
  const subject: AggregateSubject = {
    entity: 'contentItem',
    entityId: 'item-1',
    accountId: 'acc',
    projectId: 'proj',
    contentSetId: 'set',
    shape: { schema: 'yes-no', config: {}, optionCount: 2 },
  };
  const week = resolvePeriod('week', { reference: new Date('2026-11-18T12:00:00Z'), now: new Date() });

  it('names the period, sums the buckets and dates itself by the counter items', () => {
    const buckets = new Map<string, Record<string, unknown>>([
      ['2026-11-16', { bucket: '2026-11-16', count: 3, o0: 2, o1: 1, createdAt: '2026-11-16T10:00:00.000Z', updatedAt: '2026-11-17T08:00:00.000Z' }],
      ['2026-11-18', { bucket: '2026-11-18', count: 1, o1: 1, createdAt: '2026-11-18T10:00:00.000Z', updatedAt: '2026-11-18T10:00:00.000Z' }],
    ]);
    expect(aggregatedData(subject, week, buckets)).toEqual({
      id: 'contentItem:item-1:week:2026-11-16',
      accountId: 'acc',
      projectId: 'proj',
      contentSetId: 'set',
      createdAt: '2026-11-16T10:00:00.000Z',
      updatedAt: '2026-11-18T10:00:00.000Z',
      entity: 'contentItem',
      entityId: 'item-1',
      period: 'week',
      referenceDate: '2026-11-16T00:00:00.000Z',
      count: 4,
      summary: 0,
      data: {
        schema: 'yes-no',
        period: 'week',
        values: [2, 2],
        count: 4,
        counts: [2, 2],
        summary: 0,
        points: [
          [2, 1],
          [0, 0],
          [0, 1],
          [0, 0],
          [0, 0],
          [0, 0],
          [0, 0],
        ],
      },
    });
  });

  it('is zeros dated by referenceDate when no bucket exists; projects have no contentSetId nor summary', () => {
    const project = aggregatedData({ entity: 'project', entityId: 'proj', accountId: 'acc', projectId: 'proj' }, week, new Map());
    expect(project).toEqual({
      id: 'project:proj:week:2026-11-16',
      accountId: 'acc',
      projectId: 'proj',
      createdAt: '2026-11-16T00:00:00.000Z',
      updatedAt: '2026-11-16T00:00:00.000Z',
      entity: 'project',
      entityId: 'proj',
      period: 'week',
      referenceDate: '2026-11-16T00:00:00.000Z',
      count: 0,
      data: { schema: 'pulse', period: 'week', values: [0], count: 0, points: [0, 0, 0, 0, 0, 0, 0] },
    });
  });
});
