import {
  createAccount,
  createContentSet,
  expectError,
  fieldPaths,
  startTestApi,
  succeeded,
  tableSnapshot,
  type AccountKeys,
  type TestApi,
} from '../support/api';

/**
 * One rule for every name a person reads (issue 39 §5, shared/names.ts): each name field of
 * the API stores NFC, trimmed text and refuses control and format characters, line
 * separators and noncharacters with `bad-request` naming the field, writing nothing.
 * members/renameAccount and the token's name are test/integration/people.test.ts's.
 */
let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let setId: string;
let itemId: string;
let webhookId: string;

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  api = await startTestApi({ stream: false });
  owner = await createAccount('names');
  projectId = (await succeeded(api, 'projects/create', [{ name: 'Docs' }], owner.admin)).id;
  setId = await createContentSet(api, owner.admin, projectId, 'yes-no');
  itemId = (await succeeded(api, 'contents/create', [{ contentSetId: setId, key: 'page' }], owner.admin)).id;
  webhookId = (await succeeded(api, 'webhooks/create', [{ url: 'http://127.0.0.1:9/names' }], owner.admin)).id;
});
afterAll(() => api.close());

/** Each name field: the call that sets it to `name`, and the path the refusal names. */
const fields: { field: string; call: (name: string) => [string, unknown[]]; path: string; read: (answer: any) => unknown }[] = [
  { field: 'a project', call: (name) => ['projects/create', [{ name }]], path: 'args.0.name', read: (body) => body.name },
  { field: "a project's new name", call: (name) => ['projects/save', [projectId, { name }]], path: 'args.1.name', read: (body) => body.name },
  {
    field: 'a set',
    call: (name) => ['sets/create', [{ projectId, key: `set-${Math.random().toString(36).slice(2, 8)}`, schema: 'pulse', metadata: { name } }]],
    path: 'args.0.metadata.name',
    read: (body) => body.name,
  },
  { field: "a set's new name", call: (name) => ['sets/save', [setId, { name }]], path: 'args.1.name', read: (body) => body.name },
  {
    field: "an item's title",
    call: (name) => ['contents/create', [{ contentSetId: setId, key: `item-${Math.random()}`, metadata: { title: name } }]],
    path: 'args.0.metadata.title',
    read: (body) => body.metadata.title,
  },
  { field: "an item's new title", call: (name) => ['contents/save', [itemId, { title: name }]], path: 'args.1.title', read: (body) => body.metadata.title },
  {
    field: "a tag's label",
    call: (name) => [
      'sets/create',
      [
        {
          projectId,
          key: `tags-${Math.random().toString(36).slice(2, 8)}`,
          schema: 'tagged-message',
          schemaConfig: { tags: [{ value: 'idea', sentiment: 1, label: name }] },
          metadata: { name: 'Tags' },
        },
      ],
    ],
    path: 'args.0.schemaConfig.tags.0.label',
    read: (body) => body.schemaConfig.tags[0].label,
  },
  { field: "a key's label", call: (name) => ['keys/create', [{ level: 'viewer', label: name }]], path: 'args.0.label', read: (body) => body.label },
  {
    field: "a webhook's description",
    call: (name) => ['webhooks/create', [{ url: 'http://127.0.0.1:9/named', description: name }]],
    path: 'args.0.description',
    read: (body) => body.description,
  },
  {
    field: "a webhook's new description",
    call: (name) => ['webhooks/save', [webhookId, { description: name }]],
    path: 'args.1.description',
    read: (body) => body.description,
  },
];

const SPOOFS: [string, string][] = [
  ['Acme\u202Eevil', 'U+202E'], // right-to-left override: "Acme" then "live"
  ['\u2067Acme\u2069', 'U+2067'], // right-to-left isolate
  ['Ac\u200Bme', 'U+200B'], // zero-width space
  ['Ac\u200Dme', 'U+200D'], // a joiner outside an emoji sequence
  ['Acme\u0007', 'U+0007'],
  ['Ac\nme', 'U+000A'],
  ['Acme\u00AD', 'U+00AD'], // soft hyphen
  ['Acme\uFDD0', 'U+FDD0'], // a noncharacter
  ['Acme\u{10FFFF}', 'U+10FFFF'],
];

describe.each(fields)('$field', ({ call, path, read }) => {
  it('refuses control and format characters and noncharacters with bad-request naming the field, writing nothing', async () => {
    const before = await tableSnapshot();
    for (const [name, codePoint] of SPOOFS) {
      const [operation, args] = call(name);
      const answer = await api.call(operation, args, { key: owner.admin });
      expectError(answer, 400, 'bad-request');
      expect({ name, paths: fieldPaths(answer), message: answer.body.data.fields[0].message }).toEqual({
        name,
        paths: [path],
        message: expect.stringContaining(`must not contain ${codePoint}`),
      });
    }
    expect(await tableSnapshot()).toEqual(before);
  });

  it('stores NFC, trimmed text, emoji sequences with joiners and tags included', async () => {
    for (const [sent, stored] of [
      [' Cafe\u0301 docs ', 'Café docs'],
      ['👩‍💻 Team 🏳️‍🌈', '👩‍💻 Team 🏳️‍🌈'],
      ['\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Support', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Support'],
      ['مرحبا Docs', 'مرحبا Docs'],
    ]) {
      const [operation, args] = call(sent);
      const answer = await api.call(operation, args, { key: owner.admin });
      expect([answer.status, read(answer.body)]).toEqual([200, stored]);
    }
  });
});
