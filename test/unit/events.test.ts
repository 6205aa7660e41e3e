import { streamRecord } from '../support/stream-records';
import { eventsOf, matchesKeyPrefixes, RECORD_KEY_PREFIXES } from '../../functions/stream/events';
import { countedChange } from '../../functions/stream/counting';

const record = streamRecord;

const response = (overrides: Record<string, unknown> = {}) => ({
  pk: 'response#r1',
  sk: 'response',
  id: 'r1',
  accountId: 'acc',
  projectId: 'prj',
  contentSetId: 'set',
  contentItemId: 'item',
  schema: 'yes-no',
  state: 'active',
  value: 'y',
  contribution: { option: 0, sentiment: 1 },
  createdAt: '2026-03-18T10:00:00.000Z',
  updatedAt: '2026-03-18T10:00:00.000Z',
  ...overrides,
});

const contentItem = (overrides: Record<string, unknown> = {}) => ({
  pk: 'content#c1',
  sk: 'content',
  id: 'c1',
  accountId: 'acc',
  projectId: 'prj',
  contentSetId: 'set',
  key: 'https://docs.example.com/a',
  state: 'active',
  createdAt: '2026-03-18T10:00:00.000Z',
  updatedAt: '2026-03-18T10:00:00.000Z',
  ...overrides,
});

describe('eventsOf', () => {
  it('turns an inserted response into response.created with its after image, record id and position', () => {
    const inserted = record('INSERT', undefined, response());
    expect(eventsOf(inserted)).toEqual([
      { type: 'response.created', eventId: inserted.eventID, sequenceNumber: inserted.dynamodb!.SequenceNumber, after: response() },
    ]);
  });

  it('tells an edit (response.updated) from a revocation (response.revoked), both with before and after', () => {
    const [edited] = eventsOf(record('MODIFY', response(), response({ value: 'n', contribution: { option: 1, sentiment: -1 } })));
    expect(edited).toMatchObject({ type: 'response.updated', before: { value: 'y' }, after: { value: 'n' } });
    const [revoked] = eventsOf(record('MODIFY', response(), response({ state: 'revoked' })));
    expect(revoked).toMatchObject({ type: 'response.revoked', before: { state: 'active' }, after: { state: 'revoked' } });
    // A revoked response touched again is an update, not a second revocation.
    const [touched] = eventsOf(record('MODIFY', response({ state: 'revoked' }), response({ state: 'revoked', updatedAt: 'later' })));
    expect(touched.type).toBe('response.updated');
  });

  it('tells a quarantine, a release (a creation: counted and announced now) and a discard; counting follows the active images', () => {
    const quarantine = { reason: 'visitor-burst', at: '2026-03-18T10:00:01.000Z' };
    const held = response({ state: 'quarantined', quarantine });
    const [quarantined] = eventsOf(record('MODIFY', response(), held));
    expect(quarantined).toMatchObject({ type: 'response.quarantined', before: { state: 'active' }, after: { state: 'quarantined', quarantine } });
    const [released] = eventsOf(record('MODIFY', held, response({ quarantine })));
    expect(released).toMatchObject({ type: 'response.created', after: { state: 'active' } });
    expect('before' in released).toBe(false);
    const [discarded] = eventsOf(record('MODIFY', held, response({ state: 'discarded', quarantine })));
    expect(discarded).toMatchObject({ type: 'response.discarded', after: { state: 'discarded' } });
    // Created +1, quarantined -1, released +1, discarded 0.
    expect([quarantined, released, discarded].map((event) => countedChange(event))).toEqual([
      expect.objectContaining({ removed: { option: 0, sentiment: 1 }, added: undefined }),
      expect.objectContaining({ removed: undefined, added: { option: 0, sentiment: 1 } }),
      null,
    ]);
  });

  it('a response held at its creation by the screening is in no count: its creation adds nothing, its hold takes out only what was counted since', () => {
    const quarantine = { reason: 'address-limit', at: '2026-03-18T10:00:01.000Z' };
    const no = { option: 1, sentiment: -1 };
    const yes = { option: 0, sentiment: 1 };
    const uncounted = new Set(['r1']);
    const [created] = eventsOf(record('INSERT', undefined, response()));
    // Still a change of its counter items (they exist, with the shard's watermark), of nothing.
    expect(countedChange(created, uncounted)).toMatchObject({ removed: undefined, added: undefined });
    expect(countedChange(created)).toMatchObject({ removed: undefined, added: yes });
    // Held unchanged: the hold changes nothing.
    const [held] = eventsOf(record('MODIFY', response(), response({ state: 'quarantined', quarantine, uncounted: yes })));
    expect(countedChange(held, uncounted)).toBeNull();
    // The visitor changed its vote before the hold: the edit moved the vote, the hold moves it back.
    const [edited] = eventsOf(record('MODIFY', response(), response({ value: 'n', contribution: no })));
    expect(countedChange(edited, uncounted)).toMatchObject({ removed: yes, added: no });
    const [heldLater] = eventsOf(record('MODIFY', response({ value: 'n', contribution: no }), response({ state: 'quarantined', quarantine, uncounted: yes })));
    expect(countedChange(heldLater, uncounted)).toMatchObject({ removed: no, added: yes });
    // A release is its arrival, counted; and only the creation of a held response is left out.
    const [released] = eventsOf(record('MODIFY', response({ state: 'quarantined', quarantine, uncounted: yes }), response({ quarantine, uncounted: yes })));
    expect(countedChange(released, uncounted)).toMatchObject({ removed: undefined, added: yes });
  });

  it('turns a deleted response item into response.deleted with its last image', () => {
    expect(eventsOf(record('REMOVE', response(), undefined))).toEqual([expect.objectContaining({ type: 'response.deleted', before: response() })]);
  });

  it('turns content item inserts and changes into content.created and content.updated', () => {
    expect(eventsOf(record('INSERT', undefined, contentItem()))).toEqual([expect.objectContaining({ type: 'content.created', after: contentItem() })]);
    const [updated] = eventsOf(record('MODIFY', contentItem(), contentItem({ title: 'A' })));
    expect(updated).toMatchObject({ type: 'content.updated', before: { key: 'https://docs.example.com/a' }, after: { title: 'A' } });
  });

  it.each([
    ['a counter item', { pk: 'agg#contentItem#c1', sk: 'day#2026-03-18', count: 1 }],
    ['a counted marker', { pk: 'counted#event-1', sk: 'counted' }],
    ['a content key item', { pk: 'contentkey#set#abc', sk: 'contentkey' }],
    ['a content set', { pk: 'set#s1', sk: 'set', state: 'active' }],
    ['an item under a response prefix with another sort key', { pk: 'response#r1', sk: 'other' }],
  ])('has no event for %s', (_name, item) => {
    expect(eventsOf(record('INSERT', undefined, item))).toEqual([]);
  });

  it('has no event for a record without an id or a sequence number', () => {
    const withoutId = record('INSERT', undefined, response());
    delete withoutId.eventID;
    expect(eventsOf(withoutId)).toEqual([]);
    const withoutSequence = record('INSERT', undefined, response());
    delete withoutSequence.dynamodb!.SequenceNumber;
    expect(eventsOf(withoutSequence)).toEqual([]);
  });
});

describe('matchesKeyPrefixes', () => {
  it('accepts records whose partition key starts with one of the prefixes, as the event source filter does', () => {
    const responses = [RECORD_KEY_PREFIXES.response];
    expect(matchesKeyPrefixes(record('INSERT', undefined, response()), responses)).toBe(true);
    expect(matchesKeyPrefixes(record('INSERT', undefined, contentItem()), responses)).toBe(false);
    expect(matchesKeyPrefixes(record('INSERT', undefined, contentItem()), [...responses, RECORD_KEY_PREFIXES.contentItem])).toBe(true);
    expect(matchesKeyPrefixes(record('INSERT', undefined, { pk: 'agg#x', sk: 'y' }), responses)).toBe(false);
  });
});
