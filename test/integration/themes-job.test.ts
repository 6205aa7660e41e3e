/**
 * The themes job end to end on DynamoDB Local (issue 40 §4): a shop's help-centre messages
 * (test/fixtures/themes/shop.tsv) imported through the API into a tagged-message set, counted
 * by the real stream consumer, then the job: messages become themes and phrases; the day
 * records add up to the active messages; a quarantined and a removed message leave the counts
 * (the job follows the response states); a new message is placed in its theme at the next
 * run; a second discovery keeps the themes' ids; an erased message's copy goes at once.
 */
import { readFileSync } from 'node:fs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { discover, runThemes } from '../../functions/jobs/themes';
import { evaluateEntities } from '../../functions/jobs/alerts';
import { buildProjectDigest } from '../../functions/operations/digest';
import { composeDigest } from '../../functions/mail/compose';
import { ALL_TAGS, sumDays } from '../../functions/domain/theme-counts';
import { phraseKey, WORD_KEYS_VERSION } from '../../functions/domain/themes';
import { defaultStore } from '../../functions/store/entity-store';
import {
  putMessages,
  readDays,
  readMessages,
  readModel,
  readThemeState,
  requestThemesSync,
  type StoredMessage,
  writeThemeState,
} from '../../functions/store/themes';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';

jest.setTimeout(300_000);

const { store } = defaultStore();
const DAY = 86_400_000;
/** The fixture's last day: its dates are moved so that it ends today. */
const FIXTURE_END = Date.parse('2026-06-29T00:00:00Z');

let api: TestApi;
let owner: AccountKeys;
let setId: string;
const now = new Date();
const shift = Math.floor((now.getTime() - FIXTURE_END) / DAY) * DAY;

interface Row {
  id: string;
  gold: string;
  tag: string;
  page: string;
  createdAt: string;
  text: string;
}

const rows: Row[] = readFileSync('test/fixtures/themes/shop.tsv', 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [id, gold, tag, page, createdAt, text] = line.split('\t');
    return { id, gold, tag, page, createdAt: new Date(Date.parse(createdAt) + shift).toISOString(), text };
  })
  .filter((row) => Date.parse(row.createdAt) < now.getTime());

async function ok<T = any>(path: string, args: unknown[], key = owner.admin): Promise<T> {
  const answer = await api.call<T>(path, args, { key });
  if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const since = new Date(now.getTime() - 399 * DAY).toISOString().slice(0, 10);
const tomorrow = new Date(now.getTime() + DAY).toISOString().slice(0, 10);

async function setTotals() {
  return sumDays(await readDays(store, 'set', setId, ALL_TAGS, since, tomorrow, { consistent: true }));
}

async function storedMessages() {
  return readMessages(store, setId, since, tomorrow);
}

/** The stream counted, then one run of the job. */
async function sync() {
  await api.drainStream({ rank: false });
  return runThemes(store, new Date());
}

async function setState(responseId: string, state: string) {
  await store.documentClient.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { pk: `response#${responseId}`, sk: 'response' },
      UpdateExpression: 'SET #state = :state',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':state': state },
    }),
  );
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('themes');
  const projectId = (await ok('projects/create', [{ name: 'Shop' }])).id;
  setId = await createContentSet(api, owner.admin, projectId, 'tagged-message', {
    schemaConfig: {
      tags: [
        { value: 'no', sentiment: -1 },
        { value: 'yes', sentiment: 1 },
      ],
    },
  });
  const imported = await ok('responses/import', [
    setId,
    rows.map((row) => ({ key: row.page, value: { tag: row.tag, message: row.text }, createdAt: row.createdAt, importId: row.id })),
  ]);
  expect(imported.rows.filter((row: { status: string }) => row.status === 'imported')).toHaveLength(rows.length);
});

afterAll(async () => {
  await api?.close();
});

test('imported messages become themes and phrases, counted per day', async () => {
  const run = await sync();
  expect(run.discoveries).toBe(1);
  expect(run.assigned).toBe(rows.length);
  const state = await readThemeState(store, setId);
  expect(state!.themes.length).toBeGreaterThanOrEqual(4);
  const stored = await storedMessages();
  expect(stored).toHaveLength(rows.length);
  const totals = await setTotals();
  expect(totals.n).toBe(rows.length);
  // Each theme's count is its stored messages'; `other` is the rest.
  for (const theme of state!.themes) {
    expect(totals.t[theme.id] ?? 0).toBe(stored.filter((message) => message.theme === theme.id).length);
  }
  expect(Object.keys(totals.p).length).toBeGreaterThan(50);
  // The charged-twice messages share a theme.
  const charged = rows.filter((row) => row.gold === 'charged-twice').map((row) => stored.find((message) => message.text === row.text)?.theme);
  const [top] = [...new Set(charged)].map((theme) => [theme, charged.filter((other) => other === theme).length] as const).sort((a, b) => b[1] - a[1]);
  expect(top[0]).not.toBeNull();
  expect(top[1] / charged.length).toBeGreaterThanOrEqual(0.5);
  // A tag's records count only its messages.
  const no = sumDays(await readDays(store, 'set', setId, 't=no', since, tomorrow, { consistent: true }));
  expect(no.n).toBe(rows.filter((row) => row.tag === 'no').length);
  // Nothing changed: a run reads no day again.
  expect((await sync()).days).toBe(0);
});

test('a quarantined and a removed message leave the themes; a new one joins its theme', async () => {
  const before = await setTotals();
  const stored = await storedMessages();
  // Screening holds a response by setting its state (functions/stream/screening.ts). The newest: a run compares the
  // last 35 days at once, older ones only while an import's full sync is open (two minutes) or daily.
  const held = stored[stored.length - 1];
  await setState(held.responseId, 'quarantined');
  const created = await api.call('responses/create', [
    { contentSetId: setId, key: '/help/payments', value: { tag: 'no', message: 'I was charged twice for one order' } },
  ]);
  expect(created.status).toBe(200);
  const removed = await api.call('responses/create', [
    { contentSetId: setId, key: '/help/payments', value: { tag: 'no', message: 'the refund never arrived' } },
  ]);
  await api.drainStream({ rank: false });
  // A revoked response (responses/remove) is in state `revoked`.
  await setState(removed.body.responseId, 'revoked');
  await sync();
  const after = await storedMessages();
  const ids = new Set(after.map((message) => message.responseId));
  expect(ids.has(held.responseId)).toBe(false);
  expect(ids.has(removed.body.responseId)).toBe(false);
  const fresh = after.find((message) => message.responseId === created.body.responseId)!;
  expect((await ok('responses/get', [created.body.responseId])).state).toBe('active');
  expect(fresh.phrases).toContain('charg twice');
  expect((await setTotals()).n).toBe(before.n);
  // It went to the theme most charged-twice messages are in.
  const chargedThemes = after
    .filter((message) => /charged twice/i.test(message.text) && message.responseId !== created.body.responseId)
    .map((message) => message.theme);
  expect(chargedThemes).toContain(fresh.theme);
});

test('a second discovery keeps the themes and their ids', async () => {
  const first = (await readThemeState(store, setId))!;
  const model = await readModel(store, setId, first.modelId!);
  await discover(store, structuredClone(first), new Date(now.getTime() + DAY), model);
  const second = (await readThemeState(store, setId))!;
  expect(second.modelId).not.toBe(first.modelId);
  const firstIds = new Set(first.themes.map((theme) => theme.id));
  const kept = second.themes.filter((theme) => firstIds.has(theme.id));
  expect(kept.length).toBeGreaterThanOrEqual(Math.min(first.themes.length, second.themes.length) - 1);
  // Counts follow: every theme's day records equal its messages.
  const stored = await storedMessages();
  const totals = await setTotals();
  for (const theme of second.themes) expect(totals.t[theme.id] ?? 0).toBe(stored.filter((message) => message.theme === theme.id).length);
});

test('an erased message is gone from the themes at once', async () => {
  const [victim] = await storedMessages();
  expect((await ok('responses/erase', [{ responseIds: [victim.responseId] }])).erased).toBe(1);
  expect((await storedMessages()).some((message) => message.responseId === victim.responseId)).toBe(false);
  await sync();
  const stored = await storedMessages();
  const days = await readDays(store, 'set', setId, ALL_TAGS, since, tomorrow, { consistent: true });
  for (const day of days) expect([day.day, day.n]).toEqual([day.day, stored.filter((message) => message.createdAt.startsWith(day.day)).length]);
});

describe('the themes operations', () => {
  const themesOf = (path: string, args: unknown[], key = owner.viewer) => ok<any>(path, args, key);

  test('sets/themes: the messages of the period, each theme with its share, examples and items; other is the rest', async () => {
    const stored = await storedMessages();
    const answer = await themesOf('sets/themes', [setId]);
    expect(answer.messages).toBe(stored.length);
    expect(answer.themed + answer.other).toBe(answer.messages);
    expect(answer.themed).toBe(stored.filter((message) => message.theme !== null).length);
    expect(answer.themes.length).toBeGreaterThanOrEqual(4);
    for (const theme of answer.themes) {
      expect(theme.count).toBe(stored.filter((message) => message.theme === theme.id).length);
      expect(theme.share).toMatchObject({ value: theme.count / answer.messages, method: 'wilson' });
      expect(theme.share.low).toBeLessThanOrEqual(theme.share.value);
      expect(theme.examples.length).toBeGreaterThan(0);
      expect(theme.examples.length).toBeLessThanOrEqual(3);
      for (const example of theme.examples) expect(stored.find((message) => message.responseId === example.responseId)?.theme).toBe(theme.id);
      expect(theme.items.length).toBeGreaterThan(0);
      expect(theme.items[0]).toMatchObject({ contentId: expect.any(String), name: expect.any(String), count: expect.any(Number) });
    }
    expect(answer.phrases.length).toBeGreaterThan(0);
    // $size and $examples bound the answer.
    const small = await themesOf('sets/themes', [setId, { $size: 2, $examples: 0 }]);
    expect(small.themes).toHaveLength(2);
    expect(small.themes.every((theme: { examples: unknown[] }) => theme.examples.length === 0)).toBe(true);
  });

  test('compare "previous" on the "no" messages of the last 7 days flags the rising theme and phrase', async () => {
    const answer = await themesOf('sets/themes', [setId, { period: 'rolling7d', compare: 'previous', tag: 'no' }]);
    const stored = await storedMessages();
    const charged = stored.filter((message) => /charg/i.test(message.text) && /twice|double/i.test(message.text));
    const chargedTheme = answer.themes.find(
      (theme: { id: string }) => charged.filter((message) => message.theme === theme.id).length * 2 >= charged.length / 2,
    );
    expect(chargedTheme).toBeDefined();
    expect(chargedTheme.rising).toBe(true);
    expect(chargedTheme.change).toMatchObject({ method: 'newcombe' });
    expect(chargedTheme.previous).toMatchObject({ count: expect.any(Number) });
    const phrase = answer.phrases.find((candidate: { text: string }) => /charged twice/.test(candidate.text));
    expect(phrase).toMatchObject({ rising: true });
    // A tag the set does not have is refused.
    expect((await api.call('sets/themes', [setId, { tag: 'maybe' }], { key: owner.viewer })).status).toBe(400);
  });

  test('contents/themes and projects/themes add up to what the set says', async () => {
    const set = await themesOf('sets/themes', [setId, { $size: 30 }]);
    const stored = await storedMessages();
    const page = stored.find((message) => message.theme !== null)!.contentItemId;
    const item = await themesOf('contents/themes', [page, { $size: 30 }]);
    expect(item.messages).toBe(stored.filter((message) => message.contentItemId === page).length);
    expect(item.themes[0].items).toBeUndefined();
    const projectId = (await ok('sets/get', [setId])).projectId;
    const project = await themesOf('projects/themes', [projectId, { $size: 30 }]);
    expect([project.messages, project.themed]).toEqual([set.messages, set.themed]);
  });

  /** Every page of a list by theme or phrase: its response ids and the first page's count. */
  async function listAll(query: Record<string, unknown>) {
    const ids: string[] = [];
    let cursor: string | undefined;
    let count: number | undefined;
    do {
      const page = await ok('responses/list', [{ ...query, $size: 100, ...(cursor === undefined ? {} : { cursor }) }], owner.viewer);
      if (cursor === undefined) count = page.count;
      else expect(page.count).toBeUndefined();
      ids.push(...page.items.map((item: { id: string; state: string }) => item.id));
      for (const item of page.items) expect(item.state).toBe('active');
      cursor = page.cursor;
    } while (cursor !== undefined);
    return { ids, count };
  }

  test('responses/list by theme or phrase lists exactly the messages the themes answer counts', async () => {
    const answer = await themesOf('sets/themes', [setId, { period: 'rolling7d', $size: 30 }]);
    const stored = (await storedMessages()).filter((message) => message.createdAt >= answer.from && message.createdAt < answer.to);
    expect(answer.messages).toBe(stored.length);
    const period = { contentSetId: setId, from: answer.from, to: answer.to };
    for (const theme of answer.themes) {
      const listed = await listAll({ ...period, theme: theme.id });
      expect(listed.count).toBe(theme.count);
      expect(listed.ids.sort()).toEqual(
        stored
          .filter((message) => message.theme === theme.id)
          .map((message) => message.responseId)
          .sort(),
      );
    }
    const other = await listAll({ ...period, theme: 'other' });
    expect([other.count, other.ids.length]).toEqual([answer.other, answer.other]);
    expect(new Set(other.ids)).toEqual(new Set(stored.filter((message) => message.theme === null).map((message) => message.responseId)));
    // Newest first, each once.
    const whole = await listAll({ contentSetId: setId, theme: answer.themes[0].id });
    expect(new Set(whole.ids).size).toBe(whole.ids.length);

    // A phrase: the messages holding it, whatever their theme; as the answer shows it or as typed.
    const phrase = answer.phrases[0];
    const byPhrase = await listAll({ ...period, phrase: phrase.text });
    expect(byPhrase.count).toBe(byPhrase.ids.length);
    expect(byPhrase.count).toBeGreaterThanOrEqual(phrase.count);
    const key = phraseKey(phrase.text);
    expect(new Set(byPhrase.ids)).toEqual(new Set(stored.filter((message) => message.phrases.includes(key)).map((message) => message.responseId)));
    expect((await listAll({ ...period, phrase: phrase.text.toUpperCase() })).ids.sort()).toEqual(byPhrase.ids.sort());
    // British or American, either spelling finds the same messages ("a different colour").
    const colour = await listAll({ contentSetId: setId, phrase: 'colour' });
    expect(colour.ids.length).toBeGreaterThan(0);
    expect((await listAll({ contentSetId: setId, phrase: 'color' })).ids.sort()).toEqual(colour.ids.sort());

    // A tag, an item and the project: the same selection, narrowed or across sets.
    const no = await themesOf('sets/themes', [setId, { period: 'rolling7d', tag: 'no', $size: 30 }]);
    const noTheme = no.themes[0];
    expect((await listAll({ ...period, theme: noTheme.id, tag: 'no' })).count).toBe(noTheme.count);
    const page = stored.find((message) => message.theme === answer.themes[0].id)!.contentItemId;
    const itemAnswer = await themesOf('contents/themes', [page, { period: 'rolling7d', $size: 30 }]);
    const itemTheme = itemAnswer.themes.find((theme: { id: string }) => theme.id === answer.themes[0].id);
    const ofItem = await listAll({ contentId: page, from: answer.from, to: answer.to, theme: answer.themes[0].id });
    expect(ofItem.count).toBe(itemTheme.count);
    expect(ofItem.ids.every((id) => stored.find((message) => message.responseId === id)?.contentItemId === page)).toBe(true);
    const projectId = (await ok('sets/get', [setId])).projectId;
    expect((await listAll({ projectId, from: answer.from, to: answer.to, theme: answer.themes[0].id })).count).toBe(answer.themes[0].count);

    // Held and removed messages never appear (the test above quarantined and revoked two).
    const all = await listAll({ contentSetId: setId, theme: 'other' });
    const themedAll = await Promise.all(answer.themes.map((theme: { id: string }) => listAll({ contentSetId: setId, theme: theme.id })));
    const listedIds = new Set([...all.ids, ...themedAll.flatMap((listed) => listed.ids)]);
    const held = (await ok('responses/list', [{ contentSetId: setId, state: 'quarantined', $size: 100 }], owner.viewer)).items;
    expect(held.length).toBeGreaterThan(0);
    for (const response of held) expect(listedIds.has(response.id)).toBe(false);

    // Refused: both, a person, another state, a tag alone, a phrase of stop words.
    const refused = async (query: Record<string, unknown>, path: string) => {
      const answered = await api.call('responses/list', [query], { key: owner.viewer });
      expect([answered.status, answered.body.data?.fields?.[0]?.path]).toEqual([400, path]);
    };
    await refused({ contentSetId: setId, theme: 'other', phrase: 'refund' }, 'args.0.phrase');
    await refused({ userId: 'someone', theme: 'other' }, 'args.0.userId');
    await refused({ contentSetId: setId, theme: 'other', state: 'quarantined' }, 'args.0.state');
    await refused({ contentSetId: setId, tag: 'no' }, 'args.0.tag');
    await refused({ contentSetId: setId, phrase: 'the and of' }, 'args.0.phrase');
  });

  test('people curate: rename, merge, split by phrase and by messages, move and pin survive the next discoveries, audited and listed', async () => {
    const before = await themesOf('sets/themes', [setId, { $size: 30 }]);
    const [first, second, third, fourth, fifth = fourth] = before.themes;
    const stored = await storedMessages();
    const giftKey = phraseKey('gift card');
    // A phrase held by several of the fourth theme's messages: its split takes them, and later ones.
    const phraseCounts = new Map<string, number>();
    for (const message of stored.filter((candidate) => candidate.theme === fourth.id))
      for (const key of message.phrases) if (!key.includes(' ')) phraseCounts.set(key, (phraseCounts.get(key) ?? 0) + 1);
    const [splitKey] = [...phraseCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    const splitText = stored
      .find((message) => message.phrases.includes(splitKey))!
      .text.split(/\s+/)
      .find((word) => phraseKey(word) === splitKey)!;
    expect(phraseKey(splitText)).toBe(splitKey);
    const untouched = (message: StoredMessage) => !message.phrases.includes(giftKey) && !message.phrases.includes(splitKey);
    const byHand = stored.filter((message) => message.theme === fifth.id && untouched(message)).slice(-2);
    const moved = stored.find((message) => message.theme === first.id && untouched(message))!;
    expect(byHand).toHaveLength(2);

    // Viewers read, admins curate; what the set never had is not found; a split or a new pin says what it takes.
    expect((await api.call('sets/curateThemes', [setId, { kind: 'rename', themeId: first.id, label: 'x' }], { key: owner.viewer })).status).toBe(403);
    const refused = async (curation: unknown, status: number) =>
      expect((await api.call('sets/curateThemes', [setId, curation], { key: owner.admin })).status).toBe(status);
    await refused({ kind: 'rename', themeId: 'AAAAAAAAAAAAAAAAAAAAAA', label: 'x' }, 404);
    await refused({ kind: 'move', messageId: 'AAAAAAAAAAAAAAAAAAAAAA', themeId: null }, 404);
    await refused({ kind: 'split', themeId: fourth.id, label: 'Nothing' }, 400);
    await refused({ kind: 'pin', label: 'Empty' }, 400);

    const renamed = await ok('sets/curateThemes', [setId, { kind: 'rename', themeId: first.id, label: 'Billing mistakes' }]);
    await ok('sets/curateThemes', [setId, { kind: 'merge', themeIds: [second.id, third.id], into: second.id }]);
    const byPhrase = await ok('sets/curateThemes', [setId, { kind: 'split', themeId: fourth.id, label: 'Split by phrase', phrase: splitText }]);
    const split = await ok('sets/curateThemes', [
      setId,
      { kind: 'split', themeId: fifth.id, label: 'Split by hand', messageIds: byHand.map((message) => message.responseId) },
    ]);
    const move = await ok('sets/curateThemes', [setId, { kind: 'move', messageId: moved.responseId, themeId: null }]);
    const pinned = await ok('sets/curateThemes', [
      setId,
      { kind: 'pin', label: 'Gift cards', phrases: ['gift card'], examples: ['my gift card code does not work'] },
    ]);

    /** What people decided, as the themes and the job's messages show it. */
    const expectCurated = async () => {
      const state = (await readThemeState(store, setId))!;
      const messages = await storedMessages();
      const themeOf = new Map(messages.map((message) => [message.responseId, message.theme]));
      expect(state.themes.find((theme) => theme.id === first.id)).toMatchObject({ label: 'Billing mistakes', curated: true });
      expect(state.themes.some((theme) => theme.id === third.id)).toBe(false);
      expect(messages.some((message) => message.theme === third.id)).toBe(false);
      // Merged: the kept theme holds more of the two themes' messages than any other (discovery regroups; the split's phrase and the pin take theirs).
      const merged = stored.filter((message) => (message.theme === second.id || message.theme === third.id) && untouched(message));
      const landed = new Map<string, number>();
      for (const message of merged) {
        const theme = themeOf.get(message.responseId);
        if (theme) landed.set(theme, (landed.get(theme) ?? 0) + 1);
      }
      expect(state.themes.find((theme) => theme.id === second.id)).toMatchObject({ curated: true });
      expect(Math.max(...landed.values())).toBe(landed.get(second.id));
      // The phrase's messages, wherever they were, are in the split theme (but those of the gift-card pin, which takes its phrase's).
      const holding = messages.filter(
        (message) => message.phrases.includes(splitKey) && !message.phrases.includes(giftKey) && message.responseId !== moved.responseId,
      );
      expect(holding.length).toBeGreaterThan(0);
      for (const message of holding) expect([message.text, message.theme]).toEqual([message.text, byPhrase.themeId]);
      for (const message of byHand) expect(themeOf.get(message.responseId)).toBe(split.themeId);
      expect(themeOf.get(moved.responseId)).toBeNull();
      expect(state.labels[pinned.themeId]).toMatchObject({ label: 'Gift cards', curated: true });
      expect(state.labels[byPhrase.themeId]).toMatchObject({ label: 'Split by phrase', curated: true });
      // Listing follows: the split theme lists exactly its messages.
      const listed = await listAll({ contentSetId: setId, theme: split.themeId });
      expect(listed.ids.sort()).toEqual(
        messages
          .filter((message) => message.theme === split.themeId)
          .map((message) => message.responseId)
          .sort(),
      );
      for (const message of byHand) expect(listed.ids).toContain(message.responseId);
    };
    await sync();
    await expectCurated();
    // A second discovery (a day later) replays them again.
    const state = (await readThemeState(store, setId))!;
    await discover(store, state, new Date(now.getTime() + DAY), await readModel(store, setId, state.modelId!));
    await expectCurated();

    // A message set before its first discovery: only a new pinned theme.
    const projectId = (await ok('sets/get', [setId])).projectId;
    const fresh = await createContentSet(api, owner.admin, projectId, 'message');
    const early = await api.call('sets/curateThemes', [fresh, { kind: 'pin', label: 'Gift cards', phrases: ['gift card'], examples: [] }], {
      key: owner.admin,
    });
    expect([early.status, early.body]).toEqual([200, expect.objectContaining({ themeId: expect.any(String) })]);
    const records = await themesOf('sets/themeCurations', [setId]);
    expect(records.map((record: { record: { kind: string } }) => record.record.kind)).toEqual(['rename', 'merge', 'split', 'split', 'move', 'pin']);
    // Audited: each names the set, the record, and the themes and messages it changed.
    const audit = await ok('audit/list', [{ operation: 'sets/curateThemes', $size: 100 }]);
    const entries = audit.items.filter((entry: { outcome: string }) => entry.outcome === 'ok');
    expect(entries).toHaveLength(7);
    const entryOf = (result: { id: string }) => entries.find((entry: { targetIds: string[] }) => entry.targetIds.includes(result.id));
    expect(entryOf(renamed).targetIds).toEqual([setId, renamed.id, first.id]);
    expect(entryOf(split).targetIds).toEqual([setId, split.id, fifth.id, split.themeId, ...byHand.map((message) => message.responseId)]);
    expect(entryOf(move).targetIds).toEqual([setId, move.id, moved.responseId]);
    expect(
      audit.items
        .filter((entry: { outcome: string }) => entry.outcome !== 'ok')
        .map((entry: { outcome: string }) => entry.outcome)
        .sort(),
    ).toEqual(['bad-request', 'bad-request', 'forbidden', 'not-found', 'not-found']);
  });
});

describe('alerts and the digest name what grew', () => {
  test("an alert on the set names the theme that grew among its 'no' messages; the week's digest lists it", async () => {
    const projectId = (await ok('sets/get', [setId])).projectId;
    // Happier weeks before: 'yes' answers 8 to 35 days ago, so the last 7 days' sentiment fell.
    const happy = Array.from({ length: 60 }, (_, index) => ({
      key: '/help/happy',
      value: { tag: 'yes', message: `thanks, that answered it (${index})` },
      createdAt: new Date(now.getTime() - (9 + (index % 25)) * DAY).toISOString(),
      importId: `happy-${index}`,
    }));
    expect((await ok('responses/import', [setId, happy])).rows.every((row: { status: string }) => row.status === 'imported')).toBe(true);
    await sync();
    const stored = await storedMessages();
    const charged = new Set(stored.filter((message) => /charg/i.test(message.text) && /twice|double/i.test(message.text)).map((message) => message.theme));
    const { alerts } = await evaluateEntities(
      store,
      [{ entity: 'contentSet', id: setId, accountId: owner.accountId, projectId, contentSetId: setId }],
      new Date(),
    );
    expect(alerts).toHaveLength(1);
    const [alert] = (await ok('alerts/list', [{ contentSetId: setId }], owner.viewer)).items;
    expect(alert.themeTags).toEqual(['no']);
    const grown = [...alert.themes.map((theme: { id: string }) => theme.id)];
    expect(grown.some((id: string) => charged.has(id)) || alert.phrases.some((phrase: { text: string }) => /charged twice/i.test(phrase.text))).toBe(true);
    for (const theme of alert.themes) {
      expect(theme.count / theme.of).toBeGreaterThan(theme.previous.count / theme.previous.of);
      // Counted among the 'no' messages of the alert's window, some of its responses.
      expect(theme.of).toBeLessThan(alert.current.count);
    }
    // The digest of the week that holds most of the last 7 days lists the set's rising themes.
    const digests = await Promise.all(
      [now, new Date(now.getTime() + 7 * DAY)].map((reference) =>
        buildProjectDigest(store, { accountId: owner.accountId, projectId, name: 'Shop' }, reference),
      ),
    );
    const rising = digests.flatMap((digest) => (digest.risingThemes ?? []).filter((set) => set.contentSetId === setId));
    expect(rising.length).toBeGreaterThan(0);
    expect(rising.some((set) => set.themes.some((theme) => charged.has(theme.id)) || set.phrases.some((phrase) => /charged twice/i.test(phrase.text)))).toBe(
      true,
    );
    const answer = await ok('projects/digest', [projectId], owner.viewer);
    expect(answer.risingThemes).toEqual(digests[0].risingThemes);
    // Its mail lists them, each with its counts and a link to its messages of the week.
    const grownSet = rising[0];
    const weekDigest = digests.find((digest) => digest.risingThemes?.includes(grownSet))!;
    const frame = {
      accountName: 'Shop',
      consoleUrl: 'https://console.example.com',
      unsubscribeUrl: 'https://console.example.com/u',
      stops: 'the digest',
      because: '',
    };
    const mail = await composeDigest(weekDigest, frame);
    const text = mail.text.replace(/\s+/g, ' ');
    expect(text).toContain('Rising themes');
    for (const grownOne of [
      ...grownSet.themes.map((theme) => ({ name: theme.label, ...theme })),
      ...grownSet.phrases.map((phrase) => ({ name: `“${phrase.text}”`, ...phrase })),
    ]) {
      expect(text).toContain(`${grownOne.name} https://console.example.com/sets/${setId}/messages?`);
      expect(text).toContain(`${grownOne.count} of ${grownOne.of}, up from ${grownOne.previous.count} of ${grownOne.previous.of}`);
    }
  });
});

test('messages keyed by an earlier version of the word keys are keyed anew once, and the themes found again', async () => {
  const colour = (await storedMessages()).find((message) => /\bcolour\b/.test(message.text))!;
  expect(colour.phrases).toContain(phraseKey('color'));
  // As the version before keyed it (and a state that names no version).
  await putMessages(store, setId, [{ ...colour, phrases: ['colour'] }]);
  const { wordKeys: _version, ...older } = (await readThemeState(store, setId))!;
  await writeThemeState(store, setId, older);
  await requestThemesSync(store, setId, new Date(), {});
  const run = await sync();
  expect(run.discoveries).toBe(1);
  expect((await storedMessages()).find((message) => message.responseId === colour.responseId)!.phrases).toEqual(colour.phrases);
  expect((await readThemeState(store, setId))!.wordKeys).toBe(WORD_KEYS_VERSION);
  expect((await sync()).days).toBe(0);
});
