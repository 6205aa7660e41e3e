import { createAccount, expectError, revokedAdminKey, fieldPaths, pause, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';

const ID = /^[A-Za-z0-9_-]{22}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const GITHUB = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];
const FACEBOOK = ['like', 'love', 'laugh', 'wow', 'sad', 'angry'];

let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;
let revokedKey: string;
let projectId: string;
let secondProjectId: string;
let otherProjectId: string;

function setInput(key: string, overrides: Record<string, unknown> = {}, project = projectId) {
  return { projectId: project, key, schema: 'pulse', metadata: { name: `Set ${key}` }, ...overrides };
}

async function createSet(key: string, overrides: Record<string, unknown> = {}, account: AccountKeys = owner, project = projectId) {
  const answer = await api.call('sets/create', [setInput(key, overrides, project)], { key: account.admin });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function exists(project: string, key: string, account: AccountKeys = owner): Promise<boolean> {
  const answer = await api.call('sets/exists', [{ projectId: project, key }], { key: account.viewer });
  expect(answer.status).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  // Answers only: nothing here reads what the stream consumers make of the writes.
  api = await startTestApi({ stream: false });
  owner = await createAccount('owner');
  other = await createAccount('other');
  revokedKey = await revokedAdminKey(owner.accountId);
  projectId = (await api.call('projects/create', [{ name: 'Sets' }], { key: owner.admin })).body.id;
  secondProjectId = (await api.call('projects/create', [{ name: 'Sets 2' }], { key: owner.admin })).body.id;
  otherProjectId = (await api.call('projects/create', [{ name: 'Theirs' }], { key: other.admin })).body.id;
});
afterAll(() => api.close());

describe('sets/create', () => {
  it('creates an active set with the full ContentSet shape', async () => {
    const { status, body } = await api.call(
      'sets/create',
      [
        {
          projectId,
          key: 'faq',
          schema: 'yes-no',
          schemaConfig: null,
          metadata: { name: 'FAQ', description: 'Was this helpful?', disallowAutoContentCreation: true, publicAggregates: true },
        },
      ],
      { key: owner.admin },
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      id: expect.stringMatching(ID),
      name: 'FAQ',
      key: 'faq',
      accountId: owner.accountId,
      projectId,
      createdAt: expect.stringMatching(ISO),
      updatedAt: body.createdAt,
      state: 'active',
      schema: 'yes-no',
      schemaConfig: {},
      metadata: {
        description: 'Was this helpful?',
        disallowAutoContentCreation: true,
        publicAggregates: true,
        revokeWindow: 3600,
        alerts: { enabled: true, minResponses: 20, minDrop: 0.1 },
        onePerVisitor: true,
        publicMinCount: 0,
        quarantine: { visitorBurst: 5, addressLimit: 3, surgeFactor: 20, surgeFloor: 600, spamCheck: true },
      },
    });
    const read = await api.call('sets/get', [body.id], { key: owner.viewer });
    expect([read.status, read.body]).toEqual([200, body]);
  });

  it("defaults the metadata flags to false, onePerVisitor to its schema's default (on for yes-no), publicMinCount to 0", async () => {
    const body = await createSet('flags');
    // A pulse has no score: no alerts, and no minDrop.
    expect(body.metadata).toEqual({
      disallowAutoContentCreation: false,
      publicAggregates: false,
      revokeWindow: 3600,
      alerts: { enabled: false, minResponses: 20 },
      onePerVisitor: true,
      publicMinCount: 0,
      quarantine: { visitorBurst: 5, addressLimit: 3, surgeFactor: 20, surgeFloor: 600, spamCheck: true },
    });
  });

  it('takes alert settings; a minDrop scaled by the rating range by default; none on a set without a score', async () => {
    const rating = await createSet('alerts-rating', {
      schema: 'rating',
      schemaConfig: { min: 0, max: 10 },
      metadata: { name: 'R', alerts: { minResponses: 50 } },
    });
    expect(rating.metadata.alerts).toEqual({ enabled: true, minResponses: 50, minDrop: 1.25 });
    const saved = await api.call('sets/save', [rating.id, { alerts: { enabled: false } }], { key: owner.admin });
    expect(saved.body.metadata.alerts).toEqual({ enabled: false, minResponses: 50, minDrop: 1.25 });
    const refused = await api.call('sets/create', [setInput('alerts-pulse', { metadata: { name: 'P', alerts: { enabled: true } } })], { key: owner.admin });
    expect([refused.status, refused.body.error, refused.body.data.fields[0].path]).toEqual([400, 'bad-request', 'args.0.metadata.alerts']);
    const pulse = await createSet('alerts-pulse-2');
    const noDrop = await api.call('sets/save', [pulse.id, { alerts: { minDrop: 0.2 } }], { key: owner.admin });
    expect([noDrop.status, noDrop.body.data.fields[0].path]).toEqual([400, 'args.1.alerts']);
  });

  it.each([
    ['pulse', {}],
    ['yes-no', {}],
    ['message', {}],
    ['rating', { min: 1, max: 5, step: 1 }],
  ])('accepts schema %s and completes an omitted or null schemaConfig', async (schema, expected) => {
    const omitted = await createSet(`omit-${schema}`, { schema });
    expect([omitted.schema, omitted.schemaConfig]).toEqual([schema, expected]);
    const nulled = await createSet(`null-${schema}`, { schema, schemaConfig: null });
    expect(nulled.schemaConfig).toEqual(expected);
  });

  it('defaults reaction to the github preset, in order', async () => {
    for (const [key, overrides] of [
      ['reaction-omit', {}],
      ['reaction-null', { schemaConfig: null }],
      ['reaction-empty', { schemaConfig: {} }],
    ] as const) {
      const body = await createSet(key, { schema: 'reaction', ...overrides });
      expect(body.schema).toBe('reaction');
      expect(body.schemaConfig.options.map((option: { value: string }) => option.value)).toEqual(GITHUB);
      for (const option of body.schemaConfig.options) {
        expect(Object.keys(option).sort()).toEqual(['intensity', 'sentiment', 'value']);
        expect(option.sentiment).toBeGreaterThanOrEqual(-1);
        expect(option.sentiment).toBeLessThanOrEqual(1);
      }
    }
  });

  it('takes the facebook preset and custom reaction options', async () => {
    const facebook = await createSet('reaction-fb', { schema: 'reaction', schemaConfig: { preset: 'facebook' } });
    expect(facebook.schemaConfig.options.map((option: { value: string }) => option.value)).toEqual(FACEBOOK);
    const options = [
      { value: 'up', sentiment: 1, intensity: 1 },
      { value: 'down', sentiment: -1, intensity: 0 },
    ];
    const custom = await createSet('reaction-custom', { schema: 'reaction', schemaConfig: { options } });
    expect(custom.schemaConfig).toEqual({ options });
    expect((await api.call('sets/get', [custom.id], { key: owner.viewer })).body.schemaConfig).toEqual({ options });
  });

  it('defaults tagged-message to the idea, error, other tags', async () => {
    for (const [key, overrides] of [
      ['tagged-omit', {}],
      ['tagged-null', { schemaConfig: null }],
    ] as const) {
      const body = await createSet(key, { schema: 'tagged-message', ...overrides });
      // With the widgets' feedback preset's titles and icons, what the console and the preview show.
      expect(body.schemaConfig.tags).toEqual([
        { value: 'idea', sentiment: 0.5, label: 'Idea', icon: '💡' },
        { value: 'error', sentiment: -1, label: 'Error', icon: '💥' },
        { value: 'other', sentiment: 0, label: 'Other', icon: '💬' },
      ]);
    }
    const tags = [
      { value: 'bug', sentiment: -1 },
      { value: 'praise', sentiment: 1 },
    ];
    expect((await createSet('tagged-custom', { schema: 'tagged-message', schemaConfig: { tags } })).schemaConfig).toEqual({ tags });
    // Labels and icons are trimmed and kept; read back as written.
    const named = await createSet('tagged-named', {
      schema: 'tagged-message',
      schemaConfig: {
        tags: [
          { value: 'bug', sentiment: -1, label: ' Bug report ', icon: '🐞' },
          { value: 'praise', sentiment: 1, label: 'Praise' },
        ],
      },
    });
    const namedTags = [
      { value: 'bug', sentiment: -1, label: 'Bug report', icon: '🐞' },
      { value: 'praise', sentiment: 1, label: 'Praise' },
    ];
    expect(named.schemaConfig).toEqual({ tags: namedTags });
    expect((await api.call('sets/get', [named.id], { key: owner.viewer })).body.schemaConfig).toEqual({ tags: namedTags });
  });

  it('completes a partial rating config', async () => {
    expect((await createSet('rating-10', { schema: 'rating', schemaConfig: { max: 10 } })).schemaConfig).toEqual({ min: 1, max: 10, step: 1 });
    expect((await createSet('rating-half', { schema: 'rating', schemaConfig: { min: 0, max: 5, step: 0.5 } })).schemaConfig).toEqual({
      min: 0,
      max: 5,
      step: 0.5,
    });
  });

  it.each([
    ['an unknown schema', { schema: 'stars' }, ['args.0.schema']],
    ['a schema that is not a string', { schema: 1 }, ['args.0.schema']],
    [
      'a reaction sentiment above 1',
      { schema: 'reaction', schemaConfig: { options: [{ value: 'a', sentiment: 1.5, intensity: 0 }] } },
      ['args.0.schemaConfig.options.0.sentiment'],
    ],
    [
      'a reaction sentiment below -1',
      { schema: 'reaction', schemaConfig: { options: [{ value: 'a', sentiment: -2, intensity: 0 }] } },
      ['args.0.schemaConfig.options.0.sentiment'],
    ],
    [
      'duplicate reaction values',
      {
        schema: 'reaction',
        schemaConfig: {
          options: [
            { value: 'a', sentiment: 1, intensity: 0 },
            { value: 'a', sentiment: -1, intensity: 0 },
          ],
        },
      },
      ['args.0.schemaConfig.options'],
    ],
    ['an unknown reaction preset', { schema: 'reaction', schemaConfig: { preset: 'twitter' } }, ['args.0.schemaConfig.preset']],
    [
      'both preset and options',
      { schema: 'reaction', schemaConfig: { preset: 'github', options: [{ value: 'a', sentiment: 1, intensity: 0 }] } },
      ['args.0.schemaConfig'],
    ],
    ['an unknown reaction config field', { schema: 'reaction', schemaConfig: { colour: 'red' } }, ['args.0.schemaConfig']],
    [
      'an unknown reaction option field',
      { schema: 'reaction', schemaConfig: { options: [{ value: 'a', sentiment: 1, intensity: 0, emoji: 'x' }] } },
      ['args.0.schemaConfig.options.0'],
    ],
    ['a tag sentiment above 1', { schema: 'tagged-message', schemaConfig: { tags: [{ value: 'a', sentiment: 2 }] } }, ['args.0.schemaConfig.tags.0.sentiment']],
    [
      'duplicate tags',
      {
        schema: 'tagged-message',
        schemaConfig: {
          tags: [
            { value: 'a', sentiment: 0 },
            { value: 'a', sentiment: 1 },
          ],
        },
      },
      ['args.0.schemaConfig.tags'],
    ],
    ['an empty tag list', { schema: 'tagged-message', schemaConfig: { tags: [] } }, ['args.0.schemaConfig.tags']],
    [
      'a blank tag label',
      { schema: 'tagged-message', schemaConfig: { tags: [{ value: 'a', sentiment: 0, label: '   ' }] } },
      ['args.0.schemaConfig.tags.0.label'],
    ],
    [
      'a tag label over 50 characters',
      { schema: 'tagged-message', schemaConfig: { tags: [{ value: 'a', sentiment: 0, label: 'x'.repeat(51) }] } },
      ['args.0.schemaConfig.tags.0.label'],
    ],
    [
      'a tag icon over 16 characters',
      { schema: 'tagged-message', schemaConfig: { tags: [{ value: 'a', sentiment: 0, icon: 'x'.repeat(17) }] } },
      ['args.0.schemaConfig.tags.0.icon'],
    ],
    [
      'a tag icon that is not text',
      { schema: 'tagged-message', schemaConfig: { tags: [{ value: 'a', sentiment: 0, icon: 5 }] } },
      ['args.0.schemaConfig.tags.0.icon'],
    ],
    ['a rating with max equal to min', { schema: 'rating', schemaConfig: { min: 5, max: 5 } }, ['args.0.schemaConfig']],
    ['a rating with max below min', { schema: 'rating', schemaConfig: { min: 5, max: 1 } }, ['args.0.schemaConfig']],
    ['a rating max below the default min', { schema: 'rating', schemaConfig: { max: 0 } }, ['args.0.schemaConfig']],
    ['a rating step of zero', { schema: 'rating', schemaConfig: { step: 0 } }, ['args.0.schemaConfig.step']],
    ['an unknown rating field', { schema: 'rating', schemaConfig: { min: 1, max: 5, scale: 'stars' } }, ['args.0.schemaConfig']],
    ['any field for pulse', { schema: 'pulse', schemaConfig: { options: [] } }, ['args.0.schemaConfig']],
    ['a string config', { schema: 'yes-no', schemaConfig: 'yes' }, ['args.0.schemaConfig']],
  ])('refuses %s with bad-request and writes nothing', async (_case, overrides, paths) => {
    const before = await tableSnapshot();
    const answer = await api.call('sets/create', [setInput('invalid-config', overrides)], { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toEqual(expect.arrayContaining(paths));
    for (const path of fieldPaths(answer)) expect(path.startsWith(paths[0])).toBe(true);
    expect(await tableSnapshot()).toEqual(before);
    expect(await exists(projectId, 'invalid-config')).toBe(false);
  });

  it('accepts keys of 1 and 30 characters', async () => {
    for (const key of ['k', 'k'.repeat(30), '😀'.repeat(30)]) {
      const body = await createSet(key);
      expect(body.key).toBe(key);
      expect(await exists(projectId, key)).toBe(true);
    }
  });

  it.each([
    ['an empty key', { key: '' }, 'args.0.key'],
    ['a key of 31 characters', { key: 'k'.repeat(31) }, 'args.0.key'],
    ['a key of 31 emoji', { key: '😀'.repeat(31) }, 'args.0.key'],
    ['a key with a lone surrogate', { key: 'k\udc00' }, 'args.0.key'],
    ['a missing metadata', { metadata: undefined }, 'args.0.metadata'],
    ['a metadata without name', { metadata: {} }, 'args.0.metadata.name'],
    ['a description of 256 characters', { metadata: { name: 'n', description: 'd'.repeat(256) } }, 'args.0.metadata.description'],
    ['an unknown metadata field', { metadata: { name: 'n', colour: 'red' } }, 'args.0.metadata'],
    ['an unknown field', { colour: 'red' }, 'args.0'],
    ['a missing projectId', { projectId: undefined }, 'args.0.projectId'],
  ])('refuses %s with bad-request and writes nothing', async (_case, overrides, path) => {
    const before = await tableSnapshot();
    const answer = await api.call('sets/create', [setInput('limits', overrides)], { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toContain(path);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('answers conflict for a key taken in the project and writes nothing', async () => {
    const first = await createSet('dup');
    const before = await tableSnapshot();
    const answer = await api.call('sets/create', [setInput('dup', { schema: 'rating' })], { key: owner.admin });
    expectError(answer, 409, 'conflict');
    expect(await tableSnapshot()).toEqual(before);
    expect((await api.call('sets/get', [first.id], { key: owner.viewer })).body).toEqual(first);
  });

  it('allows the same key in another project and in another account', async () => {
    await createSet('everywhere');
    expect((await createSet('everywhere', {}, owner, secondProjectId)).projectId).toBe(secondProjectId);
    expect((await createSet('everywhere', {}, other, otherProjectId)).accountId).toBe(other.accountId);
    expect((await createSet('EVERYWHERE')).key).toBe('EVERYWHERE');
  });

  it("answers not-found for an unknown project or another account's project, writing nothing", async () => {
    const before = await tableSnapshot();
    expectError(await api.call('sets/create', [setInput('x', {}, 'A'.repeat(22))], { key: owner.admin }), 404, 'not-found');
    expectError(await api.call('sets/create', [setInput('x', {}, otherProjectId)], { key: owner.admin }), 404, 'not-found');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('needs a live admin key and writes nothing otherwise', async () => {
    const args = [setInput('guarded')];
    const before = await tableSnapshot();
    expectError(await api.call('sets/create', args), 401, 'unauthorized');
    expectError(await api.call('sets/create', args, { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('sets/create', args, { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('sets/create', args, { key: 'fbk_unknown' }), 401, 'unauthorized');
    expectError(await api.call('sets/create', args, { headers: { authorization: owner.admin } }), 401, 'unauthorized');
    expect(await tableSnapshot()).toEqual(before);
  });
});

describe('sets/get', () => {
  it('is readable by a viewer of the account only', async () => {
    const created = await createSet('get-me', { schema: 'reaction' });
    const read = await api.call('sets/get', [created.id], { key: owner.viewer });
    expect([read.status, read.body]).toEqual([200, created]);
    expect((await api.call('sets/get', [created.id], { key: owner.admin })).body).toEqual(created);
    expectError(await api.call('sets/get', [created.id]), 401, 'unauthorized');
    expectError(await api.call('sets/get', [created.id], { key: other.viewer }), 404, 'not-found');
    expectError(await api.call('sets/get', [created.id], { key: other.admin }), 404, 'not-found');
    expectError(await api.call('sets/get', [created.id], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('sets/get', ['A'.repeat(22)], { key: owner.viewer }), 404, 'not-found');
    const wrongType = await api.call('sets/get', [7], { key: owner.viewer });
    expectError(wrongType, 400, 'bad-request');
    expect(fieldPaths(wrongType)).toEqual(['args.0']);
  });
});

describe('sets/save', () => {
  it('applies only the given fields, keeps createdAt and moves updatedAt', async () => {
    const created = await createSet('save-me', {
      schema: 'rating',
      metadata: { name: 'Before', description: 'desc', disallowAutoContentCreation: true, publicAggregates: false },
    });
    await pause();
    const renamed = await api.call('sets/save', [created.id, { name: 'After' }], { key: owner.admin });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created, name: 'After', updatedAt: expect.stringMatching(ISO) });
    expect(renamed.body.updatedAt > created.updatedAt).toBe(true);
    await pause();
    const flags = await api.call('sets/save', [created.id, { publicAggregates: true, disallowAutoContentCreation: false, description: 'new' }], {
      key: owner.admin,
    });
    expect(flags.body).toEqual({
      ...created,
      name: 'After',
      metadata: { ...created.metadata, description: 'new', disallowAutoContentCreation: false, publicAggregates: true },
      updatedAt: expect.stringMatching(ISO),
    });
    expect(flags.body.updatedAt > renamed.body.updatedAt).toBe(true);
    const nothing = await api.call('sets/save', [created.id, {}], { key: owner.admin });
    expect(nothing.body).toEqual({ ...flags.body, updatedAt: expect.stringMatching(ISO) });
    const read = await api.call('sets/get', [created.id], { key: owner.viewer });
    expect(read.body).toEqual(nothing.body);
    // The new name is what lookup finds.
    const found = await api.call('sets/lookup', ['after'], { key: owner.viewer });
    expect(found.body.map((set: { id: string }) => set.id)).toContain(created.id);
  });

  it.each(['inactive', 'archived', 'active'])('accepts state %s', async (state) => {
    const created = await createSet(`state-${state}`);
    expect((await api.call('sets/save', [created.id, { state: 'archived' }], { key: owner.admin })).body.state).toBe('archived');
    const saved = await api.call('sets/save', [created.id, { state }], { key: owner.admin });
    expect([saved.status, saved.body.state]).toEqual([200, state]);
    expect((await api.call('sets/get', [created.id], { key: owner.viewer })).body.state).toBe(state);
  });

  it.each([
    ['an unknown state', { state: 'deleted' }, 'args.1.state'],
    ['the filter value all', { state: 'all' }, 'args.1.state'],
    ['an empty key', { key: '' }, 'args.1.key'],
    ['a key of 31 characters', { key: 'k'.repeat(31) }, 'args.1.key'],
    ['a key with a lone surrogate', { key: '\ud83d' }, 'args.1.key'],
    ['an empty name', { name: '' }, 'args.1.name'],
    ['a description of 256 characters', { description: 'd'.repeat(256) }, 'args.1.description'],
    ['a schema change', { schema: 'rating' }, 'args.1'],
    ['a schemaConfig change', { schemaConfig: {} }, 'args.1'],
    ['a flag that is not a boolean', { publicAggregates: 'yes' }, 'args.1.publicAggregates'],
  ])('refuses %s and changes nothing', async (_case, changes, path) => {
    const created = await createSet(`refuse-${Object.keys(changes)[0]}-${String(Object.values(changes)[0]).length}`);
    const before = await tableSnapshot();
    const answer = await api.call('sets/save', [created.id, changes], { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toContain(path);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('moves a key: the old one is free again, the new one is taken', async () => {
    const created = await createSet('old-key');
    await pause();
    const saved = await api.call('sets/save', [created.id, { key: 'new-key' }], { key: owner.admin });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...created, key: 'new-key', updatedAt: expect.stringMatching(ISO) });
    expect(saved.body.updatedAt > created.updatedAt).toBe(true);
    expect((await api.call('sets/get', [created.id], { key: owner.viewer })).body).toEqual(saved.body);
    expect(await exists(projectId, 'old-key')).toBe(false);
    expect(await exists(projectId, 'new-key')).toBe(true);
    const recreated = await createSet('old-key');
    expect(recreated.id).not.toBe(created.id);
    expectError(await api.call('sets/create', [setInput('new-key')], { key: owner.admin }), 409, 'conflict');
    // The key index follows the move.
    const lookup = await api.call('sets/lookup', ['new-key'], { key: owner.viewer });
    expect(lookup.body.map((set: { id: string }) => set.id)).toEqual([created.id]);
  });

  it('saving the current key keeps it taken', async () => {
    const created = await createSet('same-key');
    const saved = await api.call('sets/save', [created.id, { key: 'same-key', name: 'Renamed' }], { key: owner.admin });
    expect([saved.status, saved.body.key, saved.body.name]).toEqual([200, 'same-key', 'Renamed']);
    expect(await exists(projectId, 'same-key')).toBe(true);
  });

  it('answers conflict when moving onto a taken key and changes nothing', async () => {
    const first = await createSet('first');
    await createSet('second');
    const before = await tableSnapshot();
    const answer = await api.call('sets/save', [first.id, { key: 'second', name: 'Changed' }], { key: owner.admin });
    expectError(answer, 409, 'conflict');
    expect(await tableSnapshot()).toEqual(before);
    expect((await api.call('sets/get', [first.id], { key: owner.viewer })).body).toEqual(first);
    expect(await exists(projectId, 'first')).toBe(true);
  });

  it('a key taken in another project does not block a move', async () => {
    await createSet('elsewhere', {}, owner, secondProjectId);
    const created = await createSet('here');
    const saved = await api.call('sets/save', [created.id, { key: 'elsewhere' }], { key: owner.admin });
    expect([saved.status, saved.body.key]).toEqual([200, 'elsewhere']);
  });

  it('answers not-found for another account and unknown ids, and needs admin', async () => {
    const created = await createSet('protected');
    const before = await tableSnapshot();
    expectError(await api.call('sets/save', [created.id, { name: 'x' }], { key: other.admin }), 404, 'not-found');
    expectError(await api.call('sets/save', [created.id, { key: 'stolen' }], { key: other.admin }), 404, 'not-found');
    expectError(await api.call('sets/save', ['A'.repeat(22), { name: 'x' }], { key: owner.admin }), 404, 'not-found');
    expectError(await api.call('sets/save', [created.id, { name: 'x' }], { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('sets/save', [created.id, { name: 'x' }]), 401, 'unauthorized');
    expectError(await api.call('sets/save', [created.id, { name: 'x' }], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('sets/save', [created.id, { name: 'x' }], { headers: { authorization: 'API-KEY a b' } }), 401, 'unauthorized');
    expect(await tableSnapshot()).toEqual(before);
    expect(await exists(projectId, 'stolen')).toBe(false);
  });
});

describe('sets/exists', () => {
  it("is true only for a key of the caller's account in that project", async () => {
    await createSet('exists-key');
    expect(await exists(projectId, 'exists-key')).toBe(true);
    expect(await exists(projectId, 'exists-key-not')).toBe(false);
    expect(await exists(projectId, 'EXISTS-KEY')).toBe(false);
    expect(await exists(secondProjectId, 'exists-key')).toBe(false);
    expect(await exists(projectId, 'exists-key', other)).toBe(false);
    const admin = await api.call('sets/exists', [{ projectId, key: 'exists-key' }], { key: other.admin });
    expect([admin.status, admin.body]).toEqual([200, false]);
    expect((await api.call('sets/exists', [{ projectId, key: 'exists-key' }], { key: owner.admin })).body).toBe(true);
    expect(await exists('A'.repeat(22), 'exists-key')).toBe(false);
  });

  it('checks its arguments and needs a live key', async () => {
    expectError(await api.call('sets/exists', [{ projectId, key: 'x' }]), 401, 'unauthorized');
    expectError(await api.call('sets/exists', [{ projectId, key: 'x' }], { key: revokedKey }), 401, 'unauthorized');
    const missing = await api.call('sets/exists', [{ key: 'x' }], { key: owner.viewer });
    expectError(missing, 400, 'bad-request');
    expect(fieldPaths(missing)).toContain('args.0.projectId');
    const positional = await api.call('sets/exists', [projectId, 'x'], { key: owner.viewer });
    expectError(positional, 400, 'bad-request');
  });
});

describe('sets/lookup', () => {
  let account: AccountKeys;
  let p1: string;
  let p2: string;
  const sets: Record<string, { id: string; key: string; name: string }> = {};

  beforeAll(async () => {
    account = await createAccount('lookup');
    p1 = (await api.call('projects/create', [{ name: 'P1' }], { key: account.admin })).body.id;
    p2 = (await api.call('projects/create', [{ name: 'P2' }], { key: account.admin })).body.id;
    const specs: [string, string, string, string][] = [
      // key, name, schema, project
      ['alpha', 'Alpha set', 'pulse', 'p1'],
      ['beta', 'Alphabet soup', 'reaction', 'p1'],
      ['gamma', 'Gamma', 'rating', 'p2'],
      ['alpine', 'Zeta', 'yes-no', 'p2'],
    ];
    for (const [key, name, schema, project] of specs) {
      sets[key] = await createSet(key, { schema, metadata: { name } }, account, project === 'p1' ? p1 : p2);
    }
    await api.call('sets/save', [sets.beta.id, { state: 'archived' }], { key: account.admin });
    await api.call('sets/save', [sets.alpine.id, { state: 'inactive' }], { key: account.admin });
  });

  async function keys(text: string, filters?: object, caller = account.viewer): Promise<string[]> {
    const answer = await api.call('sets/lookup', filters === undefined ? [text] : [text, filters], { key: caller });
    expect(answer.status).toBe(200);
    return answer.body.map((set: { key: string }) => set.key).sort();
  }

  it('answers full ContentSet objects', async () => {
    const answer = await api.call('sets/lookup', ['gamma'], { key: account.viewer });
    const read = await api.call('sets/get', [sets.gamma.id], { key: account.viewer });
    expect(answer.body).toEqual([read.body]);
  });

  it('matches name and key prefixes case-insensitively, ids, and every state by default', async () => {
    expect(await keys('ALP')).toEqual(['alpha', 'alpine', 'beta']);
    expect(await keys('alp', { state: 'all' })).toEqual(['alpha', 'alpine', 'beta']);
    expect(await keys('zet')).toEqual(['alpine']);
    expect(await keys(sets.gamma.id)).toEqual(['gamma']);
    expect(await keys('')).toEqual(['alpha', 'alpine', 'beta', 'gamma']);
    expect(await keys('nothing')).toEqual([]);
  });

  it('filters on state, projectId and schema (string or array)', async () => {
    expect(await keys('', { state: 'active' })).toEqual(['alpha', 'gamma']);
    expect(await keys('', { state: 'archived' })).toEqual(['beta']);
    expect(await keys('', { state: 'inactive' })).toEqual(['alpine']);
    expect(await keys('', { projectId: p1 })).toEqual(['alpha', 'beta']);
    expect(await keys('alp', { projectId: p2 })).toEqual(['alpine']);
    expect(await keys('', { schema: 'reaction' })).toEqual(['beta']);
    expect(await keys('', { schema: ['pulse', 'rating'] })).toEqual(['alpha', 'gamma']);
    expect(await keys('', { schema: ['message'] })).toEqual([]);
    expect(await keys('', { schema: ['pulse', 'yes-no'], state: 'active', projectId: p1 })).toEqual(['alpha']);
  });

  it('refuses unknown schemas, states and filters', async () => {
    for (const [filters, path] of [
      [{ schema: 'stars' }, 'args.1.schema'],
      [{ schema: ['pulse', 'stars'] }, 'args.1.schema'],
      [{ state: 'deleted' }, 'args.1.state'],
      [{ contentSetId: 'x' }, 'args.1'],
    ] as const) {
      const answer = await api.call('sets/lookup', ['', filters], { key: account.viewer });
      expectError(answer, 400, 'bad-request');
      expect(fieldPaths(answer).some((field) => field.startsWith(path))).toBe(true);
    }
  });

  it('returns at most 20 sets', async () => {
    const many = await createAccount('many');
    const project = (await api.call('projects/create', [{ name: 'Many' }], { key: many.admin })).body.id;
    for (let index = 1; index <= 23; index++) await createSet(`set-${String(index).padStart(2, '0')}`, {}, many, project);
    const found = await keys('set-', undefined, many.viewer);
    expect(found).toEqual(Array.from({ length: 20 }, (_, index) => `set-${String(index + 1).padStart(2, '0')}`));
    expect(await keys('', undefined, many.viewer)).toHaveLength(20);
  });

  it("never shows another account's sets", async () => {
    expect(await keys('alp', undefined, other.viewer)).toEqual([]);
    expect(await keys(sets.alpha.id, undefined, other.admin)).toEqual([]);
    expect(await keys('', { projectId: p1 }, other.viewer)).toEqual([]);
  });

  it('needs a live key', async () => {
    expectError(await api.call('sets/lookup', ['alp']), 401, 'unauthorized');
    expectError(await api.call('sets/lookup', ['alp'], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('sets/lookup', ['alp'], { headers: { authorization: 'Bearer x' } }), 401, 'unauthorized');
  });
});
