import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { argumentsComponent, openApiDocument } from '../../functions/api/openapi';
import { OPERATION_NAMES, operations, type OperationName } from '../../functions/api/registry';
import { createAccount, createContentSet, pool, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer';

/**
 * The OpenAPI document and the server agree on which argument arrays are valid: for valid
 * samples of every operation and hundreds of variations of them (each argument and each
 * field replaced by values of other types, removed, or joined by unknown ones) plus cases
 * aimed at each limit, the server refuses with `bad-request` exactly the arrays that fail
 * the document's request schema (Ajv, draft 2020-12).
 *
 * The server's answer counts as "accepted" whenever it is not 400: an unknown id (404), a
 * duplicate key (409) or a revoke token that does not match (403) are checks that need the
 * database, which no request schema can make. The cases below that disagree on purpose are
 * named in EXCEPTIONS, with the reason; for those the test checks that they still do
 * disagree, so the list stays true.
 */

type Fixture = { projectId: string; setId: string; setKey: string; contentId: string; contentKey: string };

/** Where the document and the server part ways, on purpose. */
const EXCEPTIONS = {
  valueForSchema:
    "responses/create: a response's value is checked against the target set's schema, which the server reads first (a check that needs the database)",
  contextBytes: 'responses/create: context is at most 2 KiB as JSON, a size JSON Schema cannot measure',
  oneResponse: 'responses/edit and /remove: responseId and feelbackId, when both given, must be equal (JSON Schema cannot compare two fields)',
  listDepth: 'responses/list: $page * $size is at most 10,000 (JSON Schema cannot multiply)',
  listRange: 'responses/list: from must be before to (JSON Schema cannot compare two fields)',
  periodRange: 'getStats: reference and shift must name a period within the years 0000 to 9999 (computed from both fields)',
  uniqueOptions: 'sets/create: reaction options and tags must have distinct values (JSON Schema cannot compare items by one field)',
  ratingRange: 'sets/create: a rating range needs max > min and a whole number of steps (computed from the three fields)',
  storedNumbers:
    'numbers of context and schemaConfig are 0 or at least 1e-130 in magnitude, the smallest DynamoDB stores (the document says only the ranges of their sign)',
  trimmedNames: 'project and set names are trimmed before their length is checked: blank names are refused, surrounding spaces do not count',
  sealedCursor: 'a cursor is a sealed string: one that was not issued by the server for this list is refused (a check of its seal, not of its shape)',
  webhookUrl: 'webhooks/create and /save: url must parse as an absolute http(s) URL (a URL parser, not a pattern)',
  targetMismatch:
    'responses/create: contentId given with contentSetId and key must name the same item, which the server reads to compare (a check that needs the database)',
} as const;
type Exception = keyof typeof EXCEPTIONS;

interface Case {
  name: string;
  args: unknown[];
  /** This case disagrees on purpose (EXCEPTIONS). */
  exception?: Exception;
  /** A generated variation that may or may not hit the exception (the server decides with the database). */
  mayDiffer?: Exception;
}

const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
/** Nothing listens on port 9 (discard): a delivery fails at once, and stays on this machine. */
const WEBHOOK_URL = 'http://127.0.0.1:9/agreement';
// Plain http to this machine, as under `npm start`.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
// members/invite links to the console.
process.env.CONSOLE_URL = 'http://localhost:3000';
const emoji = (count: number) => '\u{1F600}'.repeat(count);

/** Valid argument arrays of each operation, and cases aimed at its limits. */
function samples(f: Fixture): Record<OperationName, { valid: unknown[][]; cases?: Case[] }> {
  const unique = () => `agree-${Math.random().toString(36).slice(2, 10)}`;
  return {
    'projects/get': { valid: [[f.projectId], [UNKNOWN_ID]] },
    'projects/lookup': {
      valid: [['Agree'], ['', { state: 'all' }], ['', null]],
      cases: [
        { name: 'inactive is no project state', args: ['', { state: 'inactive' }] },
        { name: 'text of 1024', args: ['x'.repeat(1024)] },
        { name: 'text of 1025', args: ['x'.repeat(1025)] },
      ],
    },
    'projects/create': {
      valid: [[{ name: 'Agreement', description: 'd' }]],
      cases: [
        { name: 'name of 50', args: [{ name: 'n'.repeat(50) }] },
        { name: 'name of 51', args: [{ name: 'n'.repeat(51) }] },
        { name: 'blank name', args: [{ name: '   ' }], exception: 'trimmedNames' },
        { name: 'name of 50 and a space', args: [{ name: `${'n'.repeat(50)} ` }], exception: 'trimmedNames' },
        { name: 'description of 256', args: [{ name: 'n', description: 'd'.repeat(256) }] },
      ],
    },
    'projects/save': {
      valid: [
        [f.projectId, { name: 'Renamed', state: 'active', description: '' }],
        [f.projectId, {}],
      ],
    },
    'projects/themes': { valid: [[f.projectId], [f.projectId, { period: 'week', compare: 'previous', $examples: 1 }]] },
    'projects/getStats': {
      valid: [[f.projectId], [f.projectId, { period: 'month', reference: '2026-03-04', shift: -1 }], [f.projectId, { reference: '2026-03-04T10:00:00+02:00' }]],
      cases: [
        { name: 'a date-time without offset', args: [f.projectId, { reference: '2026-03-04T10:00:00' }] },
        { name: 'an impossible date', args: [f.projectId, { reference: '2026-02-30' }] },
        { name: 'shift beyond the bound', args: [f.projectId, { shift: 36601 }] },
        { name: 'shift at the bound', args: [f.projectId, { period: 'day', shift: -36600 }] },
        { name: 'a period past 9999', args: [f.projectId, { period: 'year', reference: '9999-06-01', shift: 1 }], exception: 'periodRange' },
      ],
    },
    'sets/get': { valid: [[f.setId]] },
    'sets/lookup': {
      valid: [
        ['', { schema: ['pulse', 'rating'], state: 'active', projectId: f.projectId }],
        ['pu', { schema: 'pulse' }],
      ],
      cases: [
        { name: 'an empty schema list', args: ['', { schema: [] }] },
        { name: 'seven schemas', args: ['', { schema: ['pulse', 'pulse', 'pulse', 'pulse', 'pulse', 'pulse', 'pulse'] }] },
      ],
    },
    'sets/create': {
      valid: [
        [{ projectId: f.projectId, key: unique(), schema: 'pulse', metadata: { name: 'Agree' } }],
        [{ projectId: f.projectId, key: unique(), schema: 'reaction', schemaConfig: { preset: 'facebook' }, metadata: { name: 'R', revokeWindow: 0 } }],
        [{ projectId: f.projectId, key: unique(), schema: 'rating', schemaConfig: { min: 0, max: 10, step: 2 }, metadata: { name: 'Rating' } }],
      ],
      cases: [
        ...(
          [
            ['reaction with preset and options', 'reaction', { preset: 'github', options: [{ value: 'a', sentiment: 0, intensity: 0 }] }],
            ['reaction option without intensity', 'reaction', { options: [{ value: 'a', sentiment: 0 }] }],
            ['reaction of 51 options', 'reaction', { options: Array.from({ length: 51 }, (_, i) => ({ value: `o${i}`, sentiment: 0, intensity: 0 })) }],
            ['an unknown preset', 'reaction', { preset: 'slack' }],
            ['tagged-message without tags', 'tagged-message', { tags: [] }],
            ['tagged-message tag sentiment 2', 'tagged-message', { tags: [{ value: 'a', sentiment: 2 }] }],
            ['rating step 0', 'rating', { step: 0 }],
            ['rating max beyond a million', 'rating', { min: 999_999, max: 1_000_001, step: 2 }],
            ['rating bounds a million from 0', 'rating', { min: -1_000_000, max: 1_000_000, step: 2_000_000 }],
            ['rating step beyond two million', 'rating', { step: 2e300 }],
            ['pulse with a config field', 'pulse', { options: [] }],
            ['yes-no config as a list', 'yes-no', []],
            ['message config null', 'message', null],
          ] as const
        ).map(([name, schema, schemaConfig]) => ({
          name,
          args: [{ projectId: f.projectId, key: unique(), schema, schemaConfig, metadata: { name } }],
        })),
        {
          name: 'reaction options with one value twice',
          args: [
            {
              projectId: f.projectId,
              key: unique(),
              schema: 'reaction',
              schemaConfig: {
                options: [
                  { value: 'a', sentiment: 0, intensity: 0 },
                  { value: 'a', sentiment: 1, intensity: 1 },
                ],
              },
              metadata: { name: 'n' },
            },
          ],
          exception: 'uniqueOptions',
        },
        {
          name: 'reaction sentiment below 1e-130',
          args: [
            {
              projectId: f.projectId,
              key: unique(),
              schema: 'reaction',
              schemaConfig: { options: [{ value: 'a', sentiment: 1e-131, intensity: 0 }] },
              metadata: { name: 'n' },
            },
          ],
          exception: 'storedNumbers',
        },
        {
          name: 'rating with max below min',
          args: [{ projectId: f.projectId, key: unique(), schema: 'rating', schemaConfig: { min: 5, max: 1 }, metadata: { name: 'n' } }],
          exception: 'ratingRange',
        },
        {
          name: 'revokeWindow of 30 days and 1 s',
          args: [{ projectId: f.projectId, key: unique(), schema: 'pulse', metadata: { name: 'n', revokeWindow: 30 * 86400 + 1 } }],
        },
        { name: 'set key of 31', args: [{ projectId: f.projectId, key: 'k'.repeat(31), schema: 'pulse', metadata: { name: 'n' } }] },
        { name: 'blank set name', args: [{ projectId: f.projectId, key: unique(), schema: 'pulse', metadata: { name: ' ' } }], exception: 'trimmedNames' },
      ],
    },
    'sets/save': { valid: [[f.setId, { name: 'Pulse', publicAggregates: true, revokeWindow: 60, onePerVisitor: false, publicMinCount: 5, state: 'active' }]] },
    'sets/exists': {
      valid: [[{ projectId: f.projectId, key: f.setKey }]],
      cases: [
        { name: 'a key with a lone low surrogate', args: [{ projectId: f.projectId, key: 'k\udc00' }] },
        { name: 'a key with a lone high surrogate', args: [{ projectId: f.projectId, key: '\ud83dk' }] },
        // Both count code points, not UTF-16 units.
        { name: 'a key of 30 emoji (60 UTF-16 units)', args: [{ projectId: f.projectId, key: emoji(30) }] },
        { name: 'a key of 31 emoji', args: [{ projectId: f.projectId, key: emoji(31) }] },
      ],
    },
    'sets/top': {
      valid: [[], [{ $size: 5, projectId: f.projectId, period: 'month' }], [null]],
      cases: [{ name: 'day is no top period', args: [{ period: 'day' }] }],
    },
    'sets/getStats': { valid: [[f.setId, { period: 'rolling7d' }]] },
    'sets/themes': {
      valid: [[f.setId], [f.setId, { period: 'rolling28d', compare: 'previous', $size: 30, $examples: 0 }]],
      cases: [
        { name: '$size above 30', args: [f.setId, { $size: 31 }] },
        { name: '$examples above 10', args: [f.setId, { $examples: 11 }] },
      ],
    },
    // Not a message set, or no such theme: refused after the arguments passed (the server reads the set).
    'sets/curateThemes': {
      valid: [
        [f.setId, { kind: 'rename', themeId: UNKNOWN_ID, label: 'Code sample broken' }],
        [f.setId, { kind: 'pin', label: 'Charged twice', phrases: ['charged twice'] }],
        [f.setId, { kind: 'move', messageId: UNKNOWN_ID, themeId: null }],
      ],
      cases: [
        { name: 'unknown kind', args: [f.setId, { kind: 'delete', themeId: UNKNOWN_ID }] },
        { name: 'merge of one theme', args: [f.setId, { kind: 'merge', themeIds: [UNKNOWN_ID], into: UNKNOWN_ID }] },
      ],
    },
    'sets/themeCurations': { valid: [[f.setId]] },
    'contents/get': { valid: [[f.contentId]] },
    'contents/lookup': { valid: [['', { contentSetId: f.setId, state: 'inactive', projectId: f.projectId }], ['https://']] },
    'contents/create': {
      valid: [[{ contentSetId: f.setId, key: `https://example.com/${Math.random()}`, metadata: { title: 't', url: 'https://example.com', description: 'd' } }]],
      cases: [
        { name: 'a key of 1024', args: [{ contentSetId: f.setId, key: 'k'.repeat(1024) }] },
        { name: 'a key of 1025', args: [{ contentSetId: f.setId, key: 'k'.repeat(1025) }] },
        { name: 'a url of 2049', args: [{ contentSetId: f.setId, key: 'u', metadata: { url: 'u'.repeat(2049) } }] },
      ],
    },
    'contents/save': { valid: [[f.contentId, { title: 'T', state: 'active' }]] },
    'contents/exists': { valid: [[{ contentSetId: f.setId, key: f.contentKey }]] },
    'contents/top': { valid: [[{ contentSetId: f.setId, period: 'rolling28d', $size: 100 }], []], cases: [{ name: '$size 101', args: [{ $size: 101 }] }] },
    'contents/getStats': { valid: [[f.contentId, { period: 'day' }]] },
    'contents/themes': { valid: [[f.contentId, { period: 'month', compare: 'previous' }]] },
    'responses/get': { valid: [[UNKNOWN_ID]] },
    'responses/list': {
      valid: [
        [{ projectId: f.projectId }],
        [{ contentSetId: f.setId, contentId: f.contentId, state: 'all', $page: 2, $size: 5, from: '2026-01-01T00:00:00Z', to: '2026-12-31T00:00:00+01:00' }],
      ],
      cases: [
        { name: 'no scope', args: [{ state: 'all' }] },
        { name: 'page 101 of 100', args: [{ projectId: f.projectId, $page: 101, $size: 100 }], exception: 'listDepth' },
        { name: 'page 100 of 100', args: [{ projectId: f.projectId, $page: 100, $size: 100 }] },
        { name: 'from after to', args: [{ projectId: f.projectId, from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }], exception: 'listRange' },
        { name: 'a date for from', args: [{ projectId: f.projectId, from: '2026-02-01' }] },
      ],
    },
    'responses/export': {
      valid: [[{ projectId: f.projectId, format: 'csv' }], [{ userId: 'reader@example.com', format: 'ndjson', state: 'all' }]],
      cases: [
        { name: 'no format', args: [{ projectId: f.projectId }] },
        { name: 'xlsx', args: [{ projectId: f.projectId, format: 'xlsx' }] },
        { name: 'a person and a project', args: [{ projectId: f.projectId, userId: 'x', format: 'csv' }] },
        { name: 'a forged cursor', args: [{ projectId: f.projectId, format: 'csv', cursor: 'forged' }], exception: 'sealedCursor' },
      ],
    },
    'responses/release': {
      valid: [[{ responseIds: [UNKNOWN_ID] }]],
      cases: [
        { name: 'both', args: [{ contentId: UNKNOWN_ID, responseIds: [UNKNOWN_ID] }] },
        { name: 'neither', args: [{}] },
        { name: '101 ids', args: [{ responseIds: Array.from({ length: 101 }, () => UNKNOWN_ID) }] },
      ],
    },
    'responses/discard': {
      valid: [[{ responseIds: [UNKNOWN_ID] }]],
      cases: [{ name: 'neither', args: [{}] }],
    },
    'responses/erase': {
      valid: [[{ responseIds: [UNKNOWN_ID] }], [{ userId: 'nobody@example.com' }]],
      cases: [
        { name: 'both', args: [{ userId: 'x', responseIds: [UNKNOWN_ID] }] },
        { name: 'neither', args: [{}] },
        { name: '101 ids', args: [{ responseIds: Array.from({ length: 101 }, () => UNKNOWN_ID) }] },
      ],
    },
    'responses/import': {
      valid: [
        [f.setId, [{ key: 'agree', value: 'y', createdAt: '2024-01-01T00:00:00Z', importId: unique() }]],
        [f.setId, [{ contentId: UNKNOWN_ID, value: 1, createdAt: '2024-01-01T00:00:00+02:00', userId: 'u', context: { a: 1 }, importId: 'x' }]],
      ],
      cases: [
        { name: 'no rows', args: [f.setId, []] },
        { name: 'no target', args: [f.setId, [{ value: 'y', createdAt: '2024-01-01T00:00:00Z', importId: 'a' }]] },
        { name: 'importId of 101', args: [f.setId, [{ key: 'k', value: 'y', createdAt: '2024-01-01T00:00:00Z', importId: 'x'.repeat(101) }]] },
        { name: 'no createdAt', args: [f.setId, [{ key: 'k', value: 'y', importId: 'a' }]] },
        {
          name: '1,001 rows',
          args: [f.setId, Array.from({ length: 1001 }, (_, index) => ({ key: 'k', value: 'y', createdAt: '2024-01-01T00:00:00Z', importId: `${index}` }))],
        },
      ],
    },
    'keys/list': { valid: [[], [null], [{ $size: 5 }]], cases: [{ name: 'size 0', args: [{ $size: 0 }] }] },
    'alerts/list': {
      valid: [[], [null], [{ projectId: f.projectId, $size: 5 }]],
      cases: [
        { name: 'size 0', args: [{ $size: 0 }] },
        { name: 'a forged cursor', args: [{ cursor: 'forged' }], exception: 'sealedCursor' },
      ],
    },
    'alerts/settings': { valid: [[]] },
    'alerts/saveSettings': {
      valid: [[{ falseDiscoveryRate: 0.05 }], [{ falseDiscoveryRate: 0.25 }]],
      cases: [
        { name: 'a rate above 0.25', args: [{ falseDiscoveryRate: 0.5 }] },
        { name: 'no rate', args: [{}] },
      ],
    },
    'projects/digest': {
      valid: [[f.projectId], [f.projectId, { reference: '2026-03-04T10:00:00+02:00' }], [UNKNOWN_ID, null]],
      cases: [{ name: 'a date for reference', args: [f.projectId, { reference: '2026-03-04' }] }],
    },
    'audit/list': {
      valid: [[], [null], [{ $size: 5, operation: 'projects/create', targetId: f.projectId, from: '2026-01-01T00:00:00Z', to: '2126-01-01T00:00:00Z' }]],
      cases: [
        { name: 'size 0', args: [{ $size: 0 }] },
        { name: 'an operation that is no name', args: [{ operation: 'projects create' }] },
        { name: 'a date for from', args: [{ from: '2026-02-01' }] },
        { name: 'a forged cursor', args: [{ cursor: 'forged' }], exception: 'sealedCursor' },
      ],
    },
    'audit/export': {
      valid: [[{ format: 'csv' }], [{ format: 'ndjson', actor: UNKNOWN_ID }]],
      cases: [
        { name: 'no format', args: [{}] },
        { name: 'xlsx', args: [{ format: 'xlsx' }] },
        { name: 'a forged cursor', args: [{ format: 'csv', cursor: 'forged' }], exception: 'sealedCursor' },
      ],
    },
    'keys/create': {
      valid: [[{ level: 'viewer', label: 'agree' }], [{ level: 'admin' }]],
      cases: [{ name: 'owner level', args: [{ level: 'owner' }] }],
    },
    'keys/revoke': { valid: [[UNKNOWN_ID]], cases: [{ name: 'a number', args: [42] }] },
    'members/list': { valid: [[], [null], [{ $size: 5 }]], cases: [{ name: 'size 0', args: [{ $size: 0 }] }] },
    'members/invite': {
      valid: [
        [{ email: 'agree@example.com', role: 'viewer' }],
        [{ email: 'agree@example.com', role: 'owner' }],
        [{ email: 'agree@localhost', role: 'viewer' }],
      ],
      cases: [
        { name: 'not an email', args: [{ email: 'agree', role: 'viewer' }] },
        { name: 'a label starting with a hyphen', args: [{ email: 'agree@-localhost', role: 'viewer' }] },
        { name: 'a local part of 65 characters', args: [{ email: `${'a'.repeat(65)}@example.com`, role: 'viewer' }] },
        { name: 'no such role', args: [{ email: 'agree@example.com', role: 'superuser' }] },
      ],
    },
    'members/accept': {
      valid: [['fbi_unknown'], ['x'.repeat(100)]],
      cases: [
        { name: 'too long', args: ['x'.repeat(101)] },
        { name: 'not base64url', args: ['fbi unknown'] },
      ],
    },
    'members/setRole': {
      valid: [
        [UNKNOWN_ID, 'viewer'],
        [UNKNOWN_ID, 'owner'],
      ],
      cases: [{ name: 'no role', args: [UNKNOWN_ID] }],
    },
    'members/remove': { valid: [[UNKNOWN_ID]], cases: [{ name: 'a number', args: [42] }] },
    'members/me': { valid: [[]] },
    'members/invitations': { valid: [[], [null], [{ $size: 5 }]], cases: [{ name: 'size 0', args: [{ $size: 0 }] }] },
    'members/withdraw': { valid: [[UNKNOWN_ID]], cases: [{ name: 'a number', args: [42] }] },
    'members/invitedTo': {
      valid: [['fbi_unknown']],
      cases: [{ name: 'not base64url', args: ['fbi unknown'] }],
    },
    'members/notifications': { valid: [[]], cases: [{ name: 'an argument', args: [{}] }] },
    'members/setNotifications': {
      valid: [[{ weeklyDigest: false }], [{ alerts: 'daily', projects: null }], [{ projects: ['p1', 'p2'], resumeMail: true }]],
      cases: [
        { name: 'unknown mode', args: [{ alerts: 'hourly' }] },
        { name: 'unknown field', args: [{ digest: true }] },
        { name: 'empty project list', args: [{ projects: [] }] },
      ],
    },
    'members/sendDigest': {
      valid: [['p1']],
      cases: [
        { name: 'no project', args: [] },
        { name: 'not a string', args: [5] },
      ],
    },
    'members/renameAccount': {
      valid: [['Docs team']],
      cases: [
        { name: 'empty', args: [''] },
        { name: 'too long', args: ['x'.repeat(101)] },
      ],
    },
    'webhooks/create': {
      valid: [
        [{ url: WEBHOOK_URL, events: ['response.created', 'content.created'], projectId: f.projectId, format: 'slack', description: 'd', enabled: false }],
        [{ url: WEBHOOK_URL }],
      ],
      cases: [
        { name: 'no events', args: [{ url: WEBHOOK_URL, events: [] }] },
        { name: 'an unknown event type', args: [{ url: WEBHOOK_URL, events: ['response.seen'] }] },
        { name: 'the test event', args: [{ url: WEBHOOK_URL, events: ['webhook.test'] }] },
        { name: 'an unknown format', args: [{ url: WEBHOOK_URL, format: 'teams' }] },
        { name: 'a url of 2049', args: [{ url: `${WEBHOOK_URL}?${'q'.repeat(2049 - WEBHOOK_URL.length - 1)}` }] },
        { name: 'an ftp url', args: [{ url: 'ftp://127.0.0.1/hook' }], exception: 'webhookUrl' },
      ],
    },
    'webhooks/get': { valid: [[UNKNOWN_ID]] },
    'webhooks/list': { valid: [[], [null], [{ projectId: f.projectId, $size: 5 }]], cases: [{ name: 'size 0', args: [{ $size: 0 }] }] },
    'webhooks/save': {
      valid: [
        [UNKNOWN_ID, { url: WEBHOOK_URL, events: ['response.deleted'], projectId: null, format: 'discord', description: null, enabled: true }],
        [UNKNOWN_ID, {}],
      ],
      cases: [{ name: 'not a url', args: [UNKNOWN_ID, { url: 'example.com/hook' }], exception: 'webhookUrl' }],
    },
    'webhooks/remove': { valid: [[UNKNOWN_ID]] },
    'webhooks/rotateSecret': { valid: [[UNKNOWN_ID]] },
    'webhooks/test': { valid: [[UNKNOWN_ID]] },
    'webhooks/deliveries': {
      valid: [[{ webhookId: UNKNOWN_ID }], [{ webhookId: UNKNOWN_ID, status: 'failed', $size: 5 }]],
      cases: [{ name: 'an unknown status', args: [{ webhookId: UNKNOWN_ID, status: 'lost' }] }],
    },
    'webhooks/redeliver': { valid: [[UNKNOWN_ID]] },
    'responses/create': {
      valid: [
        [{ contentSetId: f.setId, key: f.contentKey, value: '+', revokable: true, context: { a: 1, b: 'x', c: true }, profiling: { os: 'Linux' } }],
        [{ contentId: f.contentId, value: '+' }],
        [f.setId, 'positional-key', '+'],
        [null, null, '+', null, f.contentId, false, null],
      ],
      cases: [
        { name: 'no target', args: [{ value: '+' }] },
        { name: 'a set without key', args: [{ contentSetId: f.setId, value: '+' }] },
        { name: 'positional: a set without key', args: [f.setId, null, '+'] },
        { name: 'positional: two arguments', args: [f.setId, 'k'] },
        { name: 'positional: eight arguments', args: [f.setId, 'k', '+', null, null, null, null, null] },
        { name: 'positional: value null', args: [f.setId, 'k', null] },
        { name: 'a context key of 65', args: [{ contentId: f.contentId, value: '+', context: { ['k'.repeat(65)]: 1 } }] },
        { name: 'a nested context value', args: [{ contentId: f.contentId, value: '+', context: { a: { b: 1 } } }] },
        { name: 'a context number of 2^53-1', args: [{ contentId: f.contentId, value: '+', context: { n: 2 ** 53 - 1, m: -(2 ** 53 - 1) } }] },
        { name: 'a context number of 2^53', args: [{ contentId: f.contentId, value: '+', context: { n: 2 ** 53 } }] },
        { name: 'a context number of -1e125', args: [{ contentId: f.contentId, value: '+', context: { n: -1e125 } }] },
        { name: 'a context number of 1e-130', args: [{ contentId: f.contentId, value: '+', context: { n: 1e-130 } }] },
        { name: 'a context number of 1e-131', args: [{ contentId: f.contentId, value: '+', context: { n: 1e-131 } }], exception: 'storedNumbers' },
        { name: 'a context of 2.1 KB', args: [{ contentId: f.contentId, value: '+', context: { big: 'x'.repeat(2100) } }], exception: 'contextBytes' },
        { name: 'an unknown profiling field', args: [{ contentId: f.contentId, value: '+', profiling: { planet: 'Mars' } }] },
        { name: 'a value the pulse set refuses', args: [{ contentId: f.contentId, value: 'y' }], exception: 'valueForSchema' },
        {
          name: 'contentId and another key',
          args: [{ contentId: f.contentId, contentSetId: f.setId, key: 'another', value: '+' }],
          exception: 'targetMismatch',
        },
      ],
    },
    'responses/edit': {
      valid: [[{ responseId: UNKNOWN_ID, revokeToken: 't', value: '+' }], [{ feelbackId: UNKNOWN_ID, revokeToken: 't', value: 'y' }]],
      cases: [
        { name: 'no id', args: [{ revokeToken: 't', value: '+' }] },
        { name: 'both ids, equal', args: [{ responseId: UNKNOWN_ID, feelbackId: UNKNOWN_ID, revokeToken: 't', value: '+' }] },
        { name: 'both ids, different', args: [{ responseId: UNKNOWN_ID, feelbackId: 'B'.repeat(22), revokeToken: 't', value: '+' }], exception: 'oneResponse' },
      ],
    },
    'responses/remove': {
      valid: [[{ responseId: UNKNOWN_ID, revokeToken: 't' }]],
      cases: [
        { name: 'no id', args: [{ revokeToken: 't' }] },
        { name: 'both ids, different', args: [{ responseId: UNKNOWN_ID, feelbackId: 'B'.repeat(22), revokeToken: 't' }], exception: 'oneResponse' },
      ],
    },
    'responses/getAggregates': {
      valid: [[f.contentId], [{ contentSetId: f.setId, key: 'any page' }, 'week'], [f.contentId, null]],
      cases: [{ name: 'a target with an unknown field', args: [{ contentSetId: f.setId, key: 'k', contentId: f.contentId }] }],
    },
  };
}

/** Values every argument and field is replaced with in turn. */
const VARIANTS: unknown[] = [null, 42, -1, 1.5, '', 'x', 'x'.repeat(2000), true, [], {}];
const show = (value: unknown) => (typeof value === 'string' && value.length > 20 ? `'x' * ${value.length}` : JSON.stringify(value));

/** Variations of a valid argument array; `touched` names what was changed (`1`, `0.value`). */
function variations(args: unknown[]): { name: string; args: unknown[]; touched: string }[] {
  const out: { name: string; args: unknown[]; touched: string }[] = [];
  args.forEach((argument, index) => {
    for (const value of VARIANTS)
      out.push({ name: `args.${index} = ${show(value)}`, args: args.map((item, i) => (i === index ? value : item)), touched: String(index) });
    if (argument && typeof argument === 'object' && !Array.isArray(argument)) {
      const object = argument as Record<string, unknown>;
      const replace = (field: Record<string, unknown>) => args.map((item, i) => (i === index ? field : item));
      for (const name of Object.keys(object)) {
        const { [name]: _, ...without } = object;
        out.push({ name: `args.${index} without ${name}`, args: replace(without), touched: `${index}.${name}` });
        for (const value of VARIANTS)
          out.push({ name: `args.${index}.${name} = ${show(value)}`, args: replace({ ...object, [name]: value }), touched: `${index}.${name}` });
      }
      out.push({ name: `args.${index} with an unknown field`, args: replace({ ...object, unknownField: 1 }), touched: `${index}.unknownField` });
    }
  });
  for (let length = args.length - 1; length >= 0; length--) out.push({ name: `the first ${length} arguments`, args: args.slice(0, length), touched: 'length' });
  out.push({ name: 'one more argument (null)', args: [...args, null], touched: 'length' });
  out.push({ name: 'one more argument (1)', args: [...args, 1], touched: 'length' });
  return out;
}

/** Generated variations that may meet an exception, depending on what the server reads. */
function mayDiffer(name: OperationName, touched: string, args: unknown[]): Exception | undefined {
  if ((name === 'webhooks/create' && touched === '0.url') || (name === 'webhooks/save' && touched === '1.url')) return 'webhookUrl';
  const positional = args.length > 1 && name === 'responses/create';
  if (name !== 'responses/create') return undefined;
  if (touched === '0.value' || (positional && touched === '2')) return 'valueForSchema';
  if (['0', '1', '0.contentSetId', '0.key'].includes(touched)) return 'targetMismatch';
  return undefined;
}

let api: TestApi;
let idp: TestIssuer;
/** members/accept is for signed-in people only: a newcomer's token (the others use an admin key). */
let newcomerToken: string;
let owner: AccountKeys;
let fixture: Fixture;
let validators: Record<string, ValidateFunction>;

beforeAll(async () => {
  // Compiled first: a long pause after the fixtures' requests would leave idle connections to race the server's keep-alive.
  const document = openApiDocument();
  // Draft 2020-12 treats `format` as an annotation; zod's patterns carry the date rules.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi.json', components: document.components });
  validators = Object.fromEntries(
    OPERATION_NAMES.map((name) => [name, ajv.getSchema(`openapi.json#/components/schemas/${argumentsComponent(operations[name])}`)!]),
  );
  idp = await startTestIssuer();
  process.env.OIDC_ISSUER = idp.issuer;
  process.env.OIDC_CLIENT_ID = idp.clientId;
  newcomerToken = await idp.token('agreement-newcomer', { expiresIn: 3600 });
  // Answers only: nothing here reads what the stream consumers make of the writes.
  api = await startTestApi({ stream: false });
  owner = await createAccount('agreement');
  const project = await api.call('projects/create', [{ name: 'Agreement' }], { key: owner.admin });
  const setId = await createContentSet(api, owner.admin, project.body.id, 'pulse');
  const set = await api.call('sets/get', [setId], { key: owner.viewer });
  const item = await api.call('contents/create', [{ contentSetId: setId, key: 'https://example.com/agreement' }], { key: owner.admin });
  fixture = { projectId: project.body.id, setId, setKey: set.body.key, contentId: item.body.id, contentKey: item.body.key };
});
afterAll(async () => {
  await api.close();
  await idp.close();
});

describe('the OpenAPI request schemas and the server accept the same argument arrays', () => {
  it.each(OPERATION_NAMES)(
    '%s',
    async (name) => {
      const { valid, cases = [] } = samples(fixture)[name];
      const given: Case[] = [...valid.map((args, index) => ({ name: `valid sample ${index}`, args })), ...cases];
      // A variation that repeats an argument array sent already (one of the samples, a case or
      // an earlier variation: a field replaced by the value it had, say) would only repeat its answer.
      const sent = new Set(given.map((testCase) => JSON.stringify(testCase.args)));
      const generated = valid
        .flatMap((args) => variations(args).map((variation) => ({ ...variation, mayDiffer: mayDiffer(name, variation.touched, args) })))
        .filter((variation) => {
          const key = JSON.stringify(variation.args);
          if (sent.has(key)) return false;
          sent.add(key);
          return true;
        });
      const all: Case[] = [...given, ...generated];
      const operation = operations[name];
      const results = await pool(all, 6, async (testCase) => {
        const args = JSON.parse(JSON.stringify(testCase.args)) as unknown[];
        const validate = validators[name];
        const documentAccepts = validate(args) as boolean;
        const credential = name === 'members/accept' ? { headers: { authorization: `Bearer ${newcomerToken}` } } : { key: owner.admin };
        const answer = await api.call(name, args, credential);
        const viaGet = operation.readOnly && testCase.name.startsWith('valid') ? await api.call(name, args, { ...credential, method: 'GET' }) : undefined;
        return { testCase, documentAccepts, answer, viaGet, errors: validate.errors };
      });
      const problems: string[] = [];
      for (const { testCase, documentAccepts, answer, viaGet, errors } of results) {
        const serverAccepts = answer.status !== 400;
        const describe = () =>
          `${testCase.name}: ${JSON.stringify(testCase.args).slice(0, 200)}\n    document ${documentAccepts ? 'accepts' : `refuses (${JSON.stringify(errors?.slice(0, 2))})`}, server answers ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`;
        if (testCase.name.startsWith('valid') && (!documentAccepts || !serverAccepts)) problems.push(`a valid sample is refused: ${describe()}`);
        if (viaGet && viaGet.status !== answer.status) problems.push(`GET and POST disagree (${viaGet.status}): ${describe()}`);
        if (testCase.exception) {
          // A named exception: the server refuses what the document cannot describe, or the reverse.
          if (documentAccepts === serverAccepts) problems.push(`exception ${testCase.exception} no longer differs: ${describe()}`);
        } else if (testCase.mayDiffer) {
          if (!documentAccepts && serverAccepts) problems.push(`the document refuses what the server takes: ${describe()}`);
        } else if (documentAccepts !== serverAccepts) {
          problems.push(describe());
        }
      }
      expect(problems).toEqual([]);
      // Both verdicts occur: the variations do reach the validation.
      expect(results.some((result) => !result.documentAccepts)).toBe(true);
    },
    120_000,
  ); // hundreds of requests per operation (responses/create writes ~350)

  it('names every exception it relies on', () => {
    const used = new Set(
      OPERATION_NAMES.flatMap((name) =>
        (samples({ projectId: '', setId: '', setKey: '', contentId: '', contentKey: '' })[name].cases ?? []).map((c) => c.exception),
      ),
    );
    expect([...used].filter(Boolean).sort()).toEqual(Object.keys(EXCEPTIONS).sort());
  });
});
