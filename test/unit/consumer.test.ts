import type { DynamoDBRecord } from 'aws-lambda';
import { streamRecord } from '../support/stream-records';
import type { Contribution } from '../../functions/domain/schemas';
import { counterDeltas as coalesce, counterTargets, type ResponseChange, type ResponseScope } from '../../functions/store/counters';
import { chunkChanges, countedChange } from '../../functions/stream/counting';
import { eventsOf } from '../../functions/stream/events';

/** The counting consumer's change for one record (null: it changes no count). */
const responseChange = (record: DynamoDBRecord) => eventsOf(record).map(countedChange)[0] ?? null;

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

describe('coalesce', () => {
  const targetsOfOne = counterTargets(SCOPE, NOW, NOW);

  it('merges N responses on one item into one delta per counter item', () => {
    const changes = Array.from({ length: 40 }, (_, index) => change({}, { option: index % 3, sentiment: 0.5 }));
    const deltas = coalesce(changes, NOW);
    expect(deltas).toHaveLength(targetsOfOne.length);
    expect(deltas.map(({ target }) => `${target.pk} ${target.sk}`).sort()).toEqual(targetsOfOne.map((target) => `${target.pk} ${target.sk}`).sort());
    for (const { target, delta } of deltas) {
      expect(delta.count).toBe(40);
      expect(delta.sentimentSum).toBeCloseTo(20);
      expect(delta.sentimentCount).toBe(40);
      // Project counters span schemas: no per-option counts.
      expect(delta.options).toEqual(target.attributes.entity === 'project' ? [] : [14, 13, 13]);
    }
  });

  it('nets creations, edits and revocations per item', () => {
    const deltas = coalesce(
      [
        change({}, { option: 0, rating: 5 }),
        change({}, { option: 1, rating: 4 }),
        change({}, { option: 2, rating: 3 }, { option: 0, rating: 5 }), // edit 5 -> 3
        change({}, undefined, { option: 1, rating: 4 }), // revoke the 4
      ],
      NOW,
    );
    const item = deltas.find(({ target }) => target.pk === 'agg#contentItem#item' && target.sk === 'lifetime')!;
    expect(item.delta).toMatchObject({ count: 1, options: [0, 0, 1], ratingSum: 3 });
  });

  it('keeps items apart and counts shared parents once per item', () => {
    const deltas = coalesce(
      [change({ contentItemId: 'a' }, { option: 0 }), change({ contentItemId: 'b' }, { option: 0 }), change({ contentItemId: 'b' }, { option: 0 })],
      NOW,
    );
    const lifetime = (pk: string) => deltas.find(({ target }) => target.pk === pk && target.sk === 'lifetime')!.delta.count;
    expect([lifetime('agg#contentItem#a'), lifetime('agg#contentItem#b'), lifetime('agg#contentSet#set'), lifetime('agg#project#prj')]).toEqual([1, 2, 3, 3]);
    expect(new Set(deltas.map(({ target }) => `${target.pk} ${target.sk}`)).size).toBe(deltas.length);
  });

  it('counts an old response in no rolling window it is not inside at `now`', () => {
    const old = coalesce([change({}, { option: 0 }, undefined, new Date('2026-03-01T00:00:00Z'))], NOW);
    const rolling = old.filter(({ target }) => target.sk.startsWith('rolling#')).map(({ target }) => `${target.attributes.entity} ${target.sk}`);
    expect(rolling.sort()).toEqual([
      'contentItem rolling#rolling12m',
      'contentItem rolling#rolling28d',
      'contentSet rolling#rolling12m',
      'contentSet rolling#rolling28d',
    ]);
  });
});

describe('chunkChanges', () => {
  const distinctItems = (chunk: ResponseChange[]) =>
    new Set(chunk.flatMap((entry) => counterTargets(entry.scope, entry.createdAt, NOW).map((target) => `${target.pk} ${target.sk}`))).size;

  it('keeps every transaction (markers + distinct counter items) within 100 items, in order, losing nothing', () => {
    const changes = Array.from({ length: 120 }, (_, index) => change({ contentItemId: `item-${index % 37}`, contentSetId: `set-${index % 3}` }, { option: 0 }));
    const chunks = chunkChanges(changes, NOW);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.length + distinctItems(chunk)).toBeLessThanOrEqual(100);
    expect(chunks.flat()).toEqual(changes);
  });

  it('fills a transaction: the next change would not have fit', () => {
    const changes = Array.from({ length: 60 }, (_, index) => change({ contentItemId: `item-${index}` }, { option: 0 }));
    const chunks = chunkChanges(changes, NOW);
    for (let index = 0; index < chunks.length - 1; index++) {
      const grown = [...chunks[index], chunks[index + 1][0]];
      expect(grown.length + distinctItems(grown)).toBeGreaterThan(100);
    }
  });

  it('puts many responses on one hot item into few transactions (markers dominate)', () => {
    const changes = Array.from({ length: 200 }, () => change({}, { option: 0 }));
    const chunks = chunkChanges(changes, NOW);
    const targets = counterTargets(SCOPE, NOW, NOW).length;
    expect(chunks.map((chunk) => chunk.length)).toEqual([100 - targets, 100 - targets, 200 - 2 * (100 - targets)]);
  });

  it('makes one transaction of one change, none of no change', () => {
    expect(chunkChanges([change({}, { option: 0 })], NOW)).toHaveLength(1);
    expect(chunkChanges([], NOW)).toEqual([]);
  });
});
