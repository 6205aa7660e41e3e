import type { ResponseImage } from '../../functions/domain/events';
import { type Arrival, BASELINE_DAYS, DEFAULT_QUARANTINE_SETTINGS, floodReason, quarantineSettingsOf, surgeThreshold } from '../../functions/domain/quarantine';
import { messageOf } from '../../functions/domain/spam';
import { mayBeHeld } from '../../functions/stream/screening';

/** The flood rules (functions/domain/quarantine.ts). */
const T0 = Date.parse('2026-05-04T10:00:00.000Z');
const settings = DEFAULT_QUARANTINE_SETTINGS;

function arrivals(count: number, options: { item?: string; visitor?: string; start?: number; step?: number; prefix?: string } = {}): Arrival[] {
  const { item = 'item', visitor = 'v1', start = T0, step = 1000, prefix = 'r' } = options;
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${String(index).padStart(3, '0')}`,
    contentItemId: item,
    visitor,
    createdAt: start + index * step,
  }));
}

describe('settings', () => {
  test('defaults fill what a set did not give', () => {
    expect(quarantineSettingsOf(undefined)).toEqual({ visitorBurst: 5, addressLimit: 3, surgeFactor: 20, surgeFloor: 600, spamCheck: true });
    expect(quarantineSettingsOf({ visitorBurst: 2, spamCheck: false })).toEqual({
      visitorBurst: 2,
      addressLimit: 3,
      surgeFactor: 20,
      surgeFloor: 600,
      spamCheck: false,
    });
  });

  test('the surge threshold is the floor until the mean rate times the factor passes it', () => {
    expect(surgeThreshold(settings, 0)).toBe(600);
    const minutes = BASELINE_DAYS * 24 * 60;
    expect(surgeThreshold(settings, 30 * minutes)).toBe(600);
    expect(surgeThreshold(settings, 40 * minutes)).toBe(800);
  });
});

describe('visitor burst', () => {
  test('the sixth response of one visitor on one item within a minute is held, the first five are not', () => {
    const burst = arrivals(8);
    expect(burst.map((response) => floodReason(response, burst, settings, 0))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'visitor-burst',
      'visitor-burst',
      'visitor-burst',
    ]);
  });

  test('responses a minute or more apart do not add up', () => {
    const slow = arrivals(10, { step: 12_001 });
    expect(slow.map((response) => floodReason(response, slow, settings, 0)).filter(Boolean)).toEqual([]);
  });

  test('other visitors, other items and keyed responses are not part of the burst', () => {
    const others = [...arrivals(5, { visitor: 'v2', prefix: 'a' }), ...arrivals(5, { item: 'other', prefix: 'b' })];
    const response: Arrival = { id: 'z', contentItemId: 'item', visitor: 'v1', createdAt: T0 + 10_000 };
    expect(floodReason(response, [...others, response], settings, 0)).toBeUndefined();
    const keyed = arrivals(10).map(({ visitor: _visitor, ...rest }) => rest);
    expect(keyed.map((response) => floodReason(response, keyed, settings, 0)).filter(Boolean)).toEqual([]);
  });

  test('two responses of the same millisecond are ordered by id, so exactly one of them is the sixth', () => {
    const same = arrivals(6, { step: 0 });
    expect(same.map((response) => floodReason(response, same, settings, 0)).filter(Boolean)).toHaveLength(1);
  });

  test('a limit of 0 turns the rule off; a lower one holds earlier', () => {
    const burst = arrivals(8);
    expect(burst.map((response) => floodReason(response, burst, { ...settings, visitorBurst: 0 }, 0)).filter(Boolean)).toEqual([]);
    expect(burst.map((response) => floodReason(response, burst, { ...settings, visitorBurst: 1 }, 0)).filter(Boolean)).toHaveLength(7);
  });
});

describe('one address, many user agents', () => {
  // Twenty user agents from one address: twenty visitors, one address.
  const agents = (count: number, step: number) =>
    Array.from({ length: count }, (_, index) => ({
      id: `u${String(index).padStart(3, '0')}`,
      contentItemId: 'item',
      visitor: `agent-${index}`,
      address: 'one-address',
      createdAt: T0 + index * step,
    }));

  test('a visitor past the address limit is held for it, before any other rule', () => {
    const [first] = agents(1, 0);
    expect(floodReason(first, [first], settings, 0, 'over-limit')).toBe('address-limit');
    expect(floodReason(first, [first], settings, 0, 'admitted')).toBeUndefined();
    // Keyed responses have no visitor: never held for floods.
    const { visitor: _visitor, ...keyed } = first;
    expect(floodReason(keyed, [keyed], settings, 0, 'over-limit')).toBeUndefined();
  });

  test('a burst from one address within a minute is held whatever the user agents say', () => {
    const burst = agents(8, 1000);
    expect(burst.map((response) => floodReason(response, burst, settings, 0))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'visitor-burst',
      'visitor-burst',
      'visitor-burst',
    ]);
    // Spread over more than a minute each, they are no burst.
    const slow = agents(8, 12_001);
    expect(slow.map((response) => floodReason(response, slow, settings, 0)).filter(Boolean)).toEqual([]);
  });

  test('other addresses and responses without an address are not part of the burst', () => {
    const crowd = agents(8, 1000).map((response, index) => ({ ...response, address: `address-${index}` }));
    expect(crowd.map((response) => floodReason(response, crowd, settings, 0)).filter(Boolean)).toEqual([]);
    const before = agents(8, 1000).map(({ address: _address, ...response }) => response);
    expect(before.map((response) => floodReason(response, before, settings, 0)).filter(Boolean)).toEqual([]);
  });
});

describe('item surge', () => {
  // A lower floor than the default keeps the crowds small.
  const settings = { ...DEFAULT_QUARANTINE_SETTINGS, surgeFloor: 120 };
  // Many visitors, one response each: only the surge rule can hold them.
  const crowd = (count: number, step: number) =>
    Array.from({ length: count }, (_, index) => ({
      id: `c${String(index).padStart(4, '0')}`,
      contentItemId: 'item',
      visitor: `v${index}`,
      createdAt: T0 + index * step,
    }));

  test('past the floor within a minute, an item without history holds the rest', () => {
    const surge = crowd(130, 100);
    const held = surge.filter((response) => floodReason(response, surge, settings, 0) === 'item-surge');
    expect(held).toHaveLength(10);
    expect(held[0].id).toBe('c0120');
  });

  test('an item used to that rate is not held (its history raises the threshold)', () => {
    const surge = crowd(130, 100);
    const busy = 10 * BASELINE_DAYS * 24 * 60;
    expect(surge.filter((response) => floodReason(response, surge, settings, busy)).length).toBe(0);
  });

  test('a launch day under the floor is not held; a floor of 0 turns the rule off', () => {
    const launch = crowd(119, 400);
    expect(launch.filter((response) => floodReason(response, launch, settings, 0))).toHaveLength(0);
    const surge = crowd(300, 10);
    expect(surge.filter((response) => floodReason(response, surge, { ...settings, surgeFloor: 0 }, 0))).toHaveLength(0);
  });
});

describe('which new responses a rule may hold', () => {
  const response = (fields: Partial<ResponseImage>): ResponseImage => ({
    id: 'r1',
    accountId: 'a',
    projectId: 'p',
    contentSetId: 's',
    contentItemId: 'i',
    schema: 'yes-no',
    state: 'active',
    value: 'y',
    contribution: { option: 0 },
    createdAt: '2026-05-04T10:00:00.000Z',
    updatedAt: '2026-05-04T10:00:00.000Z',
    ...fields,
  });

  test("a visitor's: the flood rules judge it, with or without a message", () => {
    expect(mayBeHeld(response({ visitor: 'v1' }), undefined)).toBe(true);
    expect(mayBeHeld(response({ visitor: 'v1' }), 'Where is my refund?')).toBe(true);
  });

  test("a site's server answer (no visitor): only when it carries a message the spam check reads", () => {
    expect(mayBeHeld(response({}), undefined)).toBe(false);
    const message = response({ schema: 'message', value: 'Where is my refund?' });
    expect(mayBeHeld(message, messageOf(message.schema, message.value))).toBe(true);
    // A set that checks no messages: the screening passes none.
    expect(mayBeHeld(message, undefined)).toBe(false);
    const empty = response({ schema: 'message', value: '' });
    expect(mayBeHeld(empty, messageOf(empty.schema, empty.value))).toBe(false);
  });
});
