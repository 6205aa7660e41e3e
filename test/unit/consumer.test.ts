import type { DynamoDBRecord } from 'aws-lambda';
import { streamRecord } from '../support/stream-records';
import type { Contribution } from '../../functions/domain/schemas';
import {
  changesAfter,
  changesPerItem,
  counterAttributes,
  counterSlots,
  isCounterSk,
  itemCountersOf,
  pointItemRange,
  pointRecords,
  sequenceKey,
  staleWatermarks,
  sumChanges,
  watermarkAdmits,
  watermarkName,
  watermarkValue,
  type ResponseChange,
  type ResponseScope,
} from '../../functions/store/counters';
import { countedChange } from '../../functions/stream/counting';
import { normalCounter } from '../support/counters';
import { eventsOf } from '../../functions/stream/events';

/** The counting consumer's change for one record (null: it changes no count). */
const responseChange = (record: DynamoDBRecord) => eventsOf(record).map((event) => countedChange(event))[0] ?? null;

const NOW = new Date('2026-03-18T15:42:07.123Z');
const SCOPE: ResponseScope = { accountId: 'acc', projectId: 'prj', contentSetId: 'set', contentItemId: 'item' };
let sequence = 1000;

function responseImage(overrides: Record<string, unknown> = {}) {
  return {
    pk: 'response#r1',
    sk: 'response',
    id: 'r1',
    ...SCOPE,
    schema: 'reaction',
    state: 'active',
    value: 'heart',
    contribution: { option: 4, sentiment: 1, intensity: 0.9 },
    createdAt: '2026-03-18T10:00:00.000Z',
    updatedAt: '2026-03-18T10:00:00.000Z',
    ...overrides,
  };
}

const record = streamRecord;

function change(scope: Partial<ResponseScope>, added?: Contribution, removed?: Contribution, createdAt = NOW): ResponseChange {
  sequence++;
  return { eventId: `event-${sequence}`, sequenceNumber: String(sequence), scope: { ...SCOPE, ...scope }, createdAt, added, removed };
}

describe('responseChange', () => {
  it('adds the contribution of an inserted active response, with its scope and creation date', () => {
    const inserted = record('INSERT', undefined, responseImage());
    expect(responseChange(inserted)).toEqual({
      eventId: inserted.eventID,
      sequenceNumber: inserted.dynamodb!.SequenceNumber,
      scope: SCOPE,
      createdAt: new Date('2026-03-18T10:00:00.000Z'),
      removed: undefined,
      added: { option: 4, sentiment: 1, intensity: 0.9 },
    });
  });

  it('moves the weight of an edit from the old value to the new one', () => {
    const edited = record(
      'MODIFY',
      responseImage(),
      responseImage({ value: 'rocket', contribution: { option: 6, sentiment: 1, intensity: 1 }, updatedAt: 'later' }),
    );
    expect(responseChange(edited)).toMatchObject({
      removed: { option: 4, sentiment: 1, intensity: 0.9 },
      added: { option: 6, sentiment: 1, intensity: 1 },
    });
  });

  it('takes a revoked or deleted response out, and ignores a revoked one changing again', () => {
    expect(responseChange(record('MODIFY', responseImage(), responseImage({ state: 'revoked' })))).toMatchObject({
      removed: { option: 4 },
      added: undefined,
    });
    expect(responseChange(record('REMOVE', responseImage(), undefined))).toMatchObject({ removed: { option: 4 }, added: undefined });
    expect(responseChange(record('MODIFY', responseImage({ state: 'revoked' }), responseImage({ state: 'revoked', updatedAt: 'x' })))).toBeNull();
    expect(responseChange(record('REMOVE', responseImage({ state: 'revoked' }), undefined))).toBeNull();
  });

  it('ignores an update that leaves the counted value as it was', () => {
    expect(responseChange(record('MODIFY', responseImage(), responseImage({ updatedAt: '2026-03-18T11:00:00.000Z', context: { a: 1 } })))).toBeNull();
  });

  it('ignores records of other items: counters, markers, sets, and records without an id or sequence number', () => {
    const counter = { pk: 'agg#contentItem#item', sk: 'day#2026-03-18', count: 3 };
    expect(responseChange(record('MODIFY', counter, { ...counter, count: 4 }))).toBeNull();
    expect(responseChange(record('INSERT', undefined, { pk: 'counted#event-1', sk: 'counted' }))).toBeNull();
    expect(responseChange(record('INSERT', undefined, { pk: 'set#s1', sk: 'set', state: 'active', contribution: { option: 0 } }))).toBeNull();
    const withoutId = record('INSERT', undefined, responseImage());
    delete withoutId.eventID;
    expect(responseChange(withoutId)).toBeNull();
    const withoutSequence = record('INSERT', undefined, responseImage());
    delete withoutSequence.dynamodb!.SequenceNumber;
    expect(responseChange(withoutSequence)).toBeNull();
  });
});

describe('changesPerItem: two items per entity and response', () => {
  it('counts a response in its day (its hour) and its year (its month), for the project, the set and the item', () => {
    expect(counterSlots(SCOPE, NOW)).toEqual(
      ['project#prj', 'contentSet#set', 'contentItem#item'].flatMap((entity) => [
        { entity: entity.split('#')[0], pk: `agg#${entity}`, sk: 'd#2026-03-18', part: 'h15' },
        { entity: entity.split('#')[0], pk: `agg#${entity}`, sk: 'y#2026', part: 'm03' },
      ]),
    );
  });

  it('merges N responses on one item into one sum per counter item, keeping each change for the watermark', () => {
    const changes = Array.from({ length: 40 }, (_, index) => change({}, { option: index % 3, sentiment: 0.5 }));
    const items = changesPerItem(changes);
    expect(items.map(({ pk, sk }) => `${pk} ${sk}`)).toEqual(counterSlots(SCOPE, NOW).map(({ pk, sk }) => `${pk} ${sk}`));
    for (const item of items) {
      expect(item.changes.map((entry) => entry.sequenceNumber)).toEqual(changes.map((entry) => entry.sequenceNumber));
      const { total, parts } = sumChanges(item.changes);
      expect(Object.keys(parts)).toEqual([item.sk.startsWith('d#') ? 'h15' : 'm03']);
      for (const counter of [total, Object.values(parts)[0]]) {
        expect(counter.count).toBe(40);
        expect(counter.sentimentSum).toBeCloseTo(20);
        expect(counter.sentimentCount).toBe(40);
        // Project counters span schemas: no per-option counts.
        expect(counter.options).toEqual(item.pk.startsWith('agg#project#') ? [] : [14, 13, 13]);
      }
    }
  });

  it('nets creations, edits and revocations per item, and keeps hours apart', () => {
    const later = new Date('2026-03-18T17:05:00Z');
    const items = changesPerItem([
      change({}, { option: 0, rating: 5 }),
      change({}, { option: 1, rating: 4 }),
      change({}, { option: 2, rating: 3 }, { option: 0, rating: 5 }), // edit 5 -> 3
      change({}, undefined, { option: 1, rating: 4 }), // revoke the 4
      change({}, { option: 1, rating: 2 }, undefined, later),
    ]);
    const day = sumChanges(items.find(({ pk, sk }) => pk === 'agg#contentItem#item' && sk === 'd#2026-03-18')!.changes);
    expect(day.total).toMatchObject({ count: 2, options: [0, 1, 1], ratingSum: 5 });
    expect(day.parts.h15).toMatchObject({ count: 1, options: [0, 0, 1], ratingSum: 3 });
    expect(day.parts.h17).toMatchObject({ count: 1, options: [0, 1], ratingSum: 2 });
  });

  it('keeps items apart and counts shared parents once per item', () => {
    const items = changesPerItem([
      change({ contentItemId: 'a' }, { option: 0 }),
      change({ contentItemId: 'b' }, { option: 0 }),
      change({ contentItemId: 'b' }, { option: 0 }),
    ]);
    const year = (pk: string) => sumChanges(items.find((item) => item.pk === pk && item.sk === 'y#2026')!.changes).total.count;
    expect([year('agg#contentItem#a'), year('agg#contentItem#b'), year('agg#contentSet#set'), year('agg#project#prj')]).toEqual([1, 2, 3, 3]);
    expect(new Set(items.map(({ pk, sk }) => `${pk} ${sk}`)).size).toBe(items.length);
  });
});

describe('the item layout', () => {
  it('stores the total and each hour under short names, zeros left out, and reads them back', () => {
    const [item] = changesPerItem([
      change({}, { option: 4, sentiment: 1, intensity: 0.9 }),
      change({}, { option: 2, sentiment: -0.5, intensity: 0.2 }, undefined, new Date('2026-03-18T09:10:00Z')),
    ]).filter((entry) => entry.pk === 'agg#contentItem#item');
    const counters = sumChanges(item.changes);
    const attributes = counterAttributes(counters);
    expect(attributes).toEqual({
      n: 2,
      o2: 1,
      o4: 1,
      ss: 0.5,
      sc: 2,
      is: 1.1,
      ic: 2,
      h09n: 1,
      h09o2: 1,
      h09ss: -0.5,
      h09sc: 1,
      h09is: 0.2,
      h09ic: 1,
      h15n: 1,
      h15o4: 1,
      h15ss: 1,
      h15sc: 1,
      h15is: 0.9,
      h15ic: 1,
    });
    const read = itemCountersOf({ pk: item.pk, sk: item.sk, ...attributes, wdeadbeef: '0212.x', c: 'then', u: 'now', v: 3 });
    expect(normalCounter(read.total)).toEqual(normalCounter(counters.total));
    expect(Object.keys(read.parts).sort()).toEqual(['h09', 'h15']);
    expect(normalCounter(read.parts.h09)).toEqual(normalCounter(counters.parts.h09));
  });

  it('serves hour, day, month and year points from day and year items', () => {
    const day = { pk: 'p', sk: 'd#2026-03-18', n: 3, o1: 2, h09n: 1, h15n: 2, h15o1: 2, c: 'c1', u: 'u1' };
    const year = { pk: 'p', sk: 'y#2026', n: 5, m01n: 2, m03n: 3, c: 'c2', u: 'u2' };
    expect([...pointRecords([day], 'hour')]).toEqual([
      ['2026-03-18T09', { count: 1, createdAt: 'c1', updatedAt: 'u1' }],
      ['2026-03-18T15', { count: 2, o1: 2, createdAt: 'c1', updatedAt: 'u1' }],
    ]);
    expect([...pointRecords([day], 'day')]).toEqual([['2026-03-18', { count: 3, o1: 2, createdAt: 'c1', updatedAt: 'u1' }]]);
    expect([...pointRecords([year], 'month')].map(([key, point]) => [key, point.count])).toEqual([
      ['2026-01', 2],
      ['2026-03', 3],
    ]);
    expect([...pointRecords([year], 'year')].map(([key, point]) => [key, point.count])).toEqual([['2026', 5]]);
    expect(pointItemRange('hour', '2026-03-18T00', '2026-03-18T23')).toEqual({ from: 'd#2026-03-18', to: 'd#2026-03-18' });
    expect(pointItemRange('month', '2025-04', '2026-03')).toEqual({ from: 'y#2025', to: 'y#2026' });
    expect(isCounterSk('d#2026-03-18') && isCounterSk('y#2026')).toBe(true);
    expect(['day#2026-03-18', 'lifetime', 'rolling#rolling7d', 'hour#2026-03-18T15'].some(isCounterSk)).toBe(false);
  });
});

describe('watermarks', () => {
  const changesAt = (...sequenceNumbers: string[]) => sequenceNumbers.map((sequenceNumber) => ({ sequenceNumber, counters: sumChanges([]) }));

  it('orders sequence numbers as numbers, whatever their length', () => {
    const numbers = ['9', '10', '99', '100', '000000000000000000123', '4421584500000000017450439091', '4421584500000000017450439092'];
    const keys = numbers.map(sequenceKey);
    expect([...keys].sort()).toEqual(keys);
    expect(sequenceKey('000000000000000000123')).toBe(sequenceKey('123'));
    expect(() => sequenceKey('12a')).toThrow('not a stream sequence number');
  });

  it('refuses the record it names and older ones, admits newer ones', () => {
    const mark = watermarkValue('1000', NOW);
    expect(watermarkAdmits(undefined, '5')).toBe(true);
    expect(watermarkAdmits(mark, '999')).toBe(false);
    expect(watermarkAdmits(mark, '1000')).toBe(false);
    expect(watermarkAdmits(mark, '1001')).toBe(true);
    expect(watermarkAdmits(mark, '10000')).toBe(true);
    expect(changesAfter(mark, changesAt('998', '1000', '1001', '1002')).map((entry) => entry.sequenceNumber)).toEqual(['1001', '1002']);
    expect(changesAfter(undefined, changesAt('1', '2'))).toHaveLength(2);
  });

  it('names a shard by a short hash, the same every time', () => {
    expect(watermarkName('shardId-00000001700000000000-abcdef12')).toMatch(/^w[0-9a-f]{8}$/);
    expect(watermarkName('a')).toBe(watermarkName('a'));
    expect(watermarkName('a')).not.toBe(watermarkName('b'));
  });

  it('prunes only watermarks older than 25 hours (no record of theirs can come again), and only past a few per item', () => {
    const hour = 3600 * 1000;
    const at = (hoursAgo: number, sequence: string) => watermarkValue(sequence, new Date(NOW.getTime() - hoursAgo * hour));
    const item: Record<string, unknown> = { pk: 'p', sk: 'd#2026-03-18', n: 3, w00000001: at(0, '50'), w00000002: at(24, '40'), w00000003: at(24.9, '30') };
    expect(staleWatermarks(item, NOW)).toEqual({});
    item.w00000004 = at(25.1, '20');
    item.w00000005 = at(300, '10');
    // Five watermarks: the two older than 25 h go, the one of 24.9 h stays (its records may still be redelivered).
    expect(staleWatermarks(item, NOW)).toEqual({ w00000004: item.w00000004, w00000005: item.w00000005 });
    // The refusal holds until pruning: the 24.9 h watermark still refuses its record.
    expect(watermarkAdmits(String(item.w00000003), '30')).toBe(false);
  });
});
