/**
 * ElectroDB model of the single table. Every entity lives here so the key design can
 * be read in one place.
 *
 * Key design (all key attributes are strings; `<x>` is an attribute value):
 *
 * | Access pattern                                  | Index | Partition key                          | Sort key                         |
 * |-------------------------------------------------|-------|----------------------------------------|----------------------------------|
 * | Account by id                                   | table | account#<id>                           | account                          |
 * | Account by name (key CLI, dev bootstrap)        | gsi1  | account-name#<name>                    | account                          |
 * | API key by secret hash (every authenticated call)| table | apikey#<keyHash>                      | apikey                           |
 * | API keys, all, by account (key CLI, keys/list)  | gsi1  | apikeys                                | <accountId>#<createdAt>          |
 * | API key by public id (key CLI `revoke`)         | gsi2  | apikey-id#<id>                         | apikey                           |
 * | Member by person (every call with a Bearer token)| table | member#<personKey>                     | member                           |
 * | Members of an account, oldest first (members/list)| gsi1 | account#<accountId>#members            | <createdAt>#<id>                 |
 * | Member by id (members/setRole, remove)          | gsi2  | member-id#<id>                         | member                           |
 * | Invitation by token hash (members/accept)       | table | invitation#<tokenHash>                 | invitation                       |
 * | Invitations of an account (members/invitations) | gsi1  | account#<accountId>#invitations        | <createdAt>#<id>                 |
 * | Invitation by id (members/withdraw)             | gsi2  | invitation-id#<id>                     | invitation                       |
 * | Project by id                                   | table | project#<id>                           | project                          |
 * | Projects of an account by name prefix (lookup)  | gsi1  | account#<accountId>#projects           | <lowercase name>#<id>            |
 * | Content set by id                               | table | set#<id>                               | set                              |
 * | Content set by (project, key) (uniqueness)      | table | setkey#<projectId>#<key>               | setkey                           |
 * | Content sets of an account by name prefix       | gsi1  | account#<accountId>#sets               | <lowercase name>#<id>            |
 * | Content sets of an account by key prefix        | gsi2  | account#<accountId>#setkeys            | <lowercase key>#<id>             |
 * | Content item by id                              | table | content#<id>                           | content                          |
 * | Content item by (set, key) (uniqueness)         | table | contentkey#<contentSetId>#<keyHash>    | contentkey                       |
 * | Content items by (set, decoded key) (widgets)   | table | contentkeyalias#<contentSetId>#<decodedKeyHash> | contentkeyalias         |
 * | Content items of an account by key prefix       | gsi1  | account#<accountId>#contentkeys        | <lowercase key, 200 chars>#<id>  |
 * | Content items of an account by title prefix     | gsi2  | account#<accountId>#contenttitles      | <lowercase title, 200 chars>#<id>|
 * | Response by id                                  | table | response#<id>                          | response                         |
 * | Responses of a content item, newest first       | gsi1  | content#<contentItemId>#responses#<shard> | <createdAt>#<id>              |
 * | Responses of a content set, newest first        | gsi2  | set#<contentSetId>#responses#<shard>   | <createdAt>#<id>                 |
 * | Responses of a project, newest first            | gsi3  | project#<projectId>#responses#<shard>  | <createdAt>#<id>                 |
 * | Responses of a person (userId), newest first    | gsi4  | user#<accountId>#<userId>              | <createdAt>#<id>                 |
 *
 * The responses' list partitions (gsi1-gsi3) are write-sharded: `<shard>` is 0-7, derived from
 * the response id (domain/response-shards.ts), and lists merge the shards newest first
 * (operations/response-lists.ts). Responses written before shards keep the key without
 * `#<shard>`, read as one more shard.
 *
 * gsi4 is sparse: only responses that carry a user id (profiling.userId, given or taken
 * from context.$user) have its keys. `keys/list` reads one account's keys from gsi1 with a
 * begins_with on `<accountId>#` (account ids have a fixed length, so the prefix is exact).
 *
 * Keys are unique within their parent through a second, small item written in the same
 * transaction as the entity (`setkey`, `contentkey`), whose creation is conditional on its
 * absence; changing a key moves that item in one transaction. Content item keys are up
 * to 1024 characters of any Unicode, more than a key attribute holds, so their item is
 * addressed by SHA-256 of the key (`keyHash`) and keeps the full key. Both the set and
 * the key item are known from (contentSetId, key) alone, so the widgets' path resolves
 * them in one BatchGetItem.
 *
 * A content key holding %-escapes (`https://blog.example/caf%C3%A9`) also has an alias
 * item under SHA-256 of its decoded form (`decodedKeyHash`, domain/percent-escapes.ts),
 * because the widgets' GET hands the server that decoded form. The alias is not a
 * uniqueness item: distinct keys may share a decoded form (`%C3%A9` and `%c3%a9`), so it
 * holds the set of their items (`<createdAt>#<id>`, the oldest first) and is written with
 * unconditional ADD/DELETE in the transaction that writes or moves the key item, where it
 * can never be the reason a transaction fails (operations/content-keys.ts). The widgets'
 * lookup reads set, key item and alias in the same one BatchGetItem.
 *
 * A person (issuer + subject, hashed to `personKey`) is a member of at most one account, so
the membership is one item keyed by the person: authentication reads it strongly
consistent, and its creation is conditional on its absence. Invitations expire by the
table's TTL (`expiresAt`, epoch seconds); their acceptance is checked against the time, as
DynamoDB deletes expired items late. The account's `owners` counts its owners, changed in
the transaction that changes a role, so the last owner cannot be demoted or removed
(operations/members.ts).

No access pattern uses Scan. Lookups by prefix filter state/project/schema on the
 * Query and stop after 20 matches.
 *
 * Items kept without ElectroDB have their key tables in their own modules: counters
 * (store/counters.ts), webhooks and their deliveries (store/webhooks.ts, with the sparse
 * `due` index of pending deliveries).
 */
import { SCHEMAS } from '../../shared/schema-options';
import type { TableClient } from './dynamodb-clients';
import { Entity, Service, type CreateEntityItem, type EntityItem } from 'electrodb';
import { responseShard } from '../domain/response-shards';
import { CONTENT_STATES, PROJECT_STATES, RESPONSE_STATES } from '../domain/states';

const SERVICE = 'feedback';

/** Key attributes carry ids and user text verbatim: ElectroDB's default lower-casing would merge distinct ids. */
const key = <const Composite extends readonly string[]>(field: string, template: string, composite: Composite) => ({
  field,
  composite,
  template,
  casing: 'none' as const,
});

/**
 * Who made a key or an invitation, as the audit log names an actor (domain/audit.ts
 * `AuditActor`): the person (membership id, and the email and name the API knew them by),
 * the key (id, label) or the operator (the key CLI).
 */
const maker = {
  type: 'map',
  readOnly: true,
  properties: {
    type: { type: ['person', 'key', 'operator'] as const, required: true },
    memberId: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    keyId: { type: 'string' },
    label: { type: 'string' },
  },
} as const;

const timestamps = {
  createdAt: { type: 'string', required: true, readOnly: true },
  updatedAt: { type: 'string', required: true },
} as const;

export const Account = new Entity({
  model: { entity: 'account', version: '1', service: SERVICE },
  attributes: {
    id: { type: 'string', required: true, readOnly: true },
    name: { type: 'string', required: true, readOnly: true },
    /** What people see the account called (members/renameAccount); absent: its `name`. */
    displayName: { type: 'string' },
    /** How many members are owners; kept by operations/members.ts in the transactions that change roles (absent: none). */
    owners: { type: 'number' },
    /** The account's alert settings (alerts/saveSettings); absent: the defaults (domain/alert-settings.ts). */
    alerts: { type: 'map', properties: { falseDiscoveryRate: { type: 'number' } } },
    ...timestamps,
  },
  indexes: {
    byId: { pk: key('pk', 'account#${id}', ['id']), sk: key('sk', 'account', []) },
    byName: {
      index: 'gsi1',
      pk: key('gsi1pk', 'account-name#${name}', ['name']),
      sk: key('gsi1sk', 'account', []),
    },
  },
});

export const ApiKey = new Entity({
  model: { entity: 'apikey', version: '1', service: SERVICE },
  attributes: {
    keyHash: { type: 'string', required: true, readOnly: true },
    id: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
    level: { type: ['viewer', 'admin'] as const, required: true, readOnly: true },
    label: { type: 'string' },
    revokedAt: { type: 'string' },
    /** Refreshed by authentication at most once a minute (functions/api/auth.ts). */
    lastUsedAt: { type: 'string' },
    /** Who created the key (absent on keys created before it was recorded): their loss revokes it (operations/access-cascade.ts). */
    createdBy: maker,
    /** How many keys this key created (absent: none), moved with each creation: the cascade checks it saw them all. */
    keysMade: { type: 'number' },
    ...timestamps,
  },
  indexes: {
    byHash: { pk: key('pk', 'apikey#${keyHash}', ['keyHash']), sk: key('sk', 'apikey', []) },
    all: {
      index: 'gsi1',
      pk: key('gsi1pk', 'apikeys', []),
      sk: key('gsi1sk', '${accountId}#${createdAt}', ['accountId', 'createdAt']),
    },
    byId: {
      index: 'gsi2',
      pk: key('gsi2pk', 'apikey-id#${id}', ['id']),
      sk: key('gsi2sk', 'apikey', []),
    },
  },
});

/** A person's membership of an account (one account per person); read raw by authentication (store/items.ts). */
export const Member = new Entity({
  model: { entity: 'member', version: '1', service: SERVICE },
  attributes: {
    personKey: { type: 'string', required: true, readOnly: true },
    id: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
    issuer: { type: 'string', required: true, readOnly: true },
    subject: { type: 'string', required: true, readOnly: true },
    role: { type: ['viewer', 'admin', 'owner'] as const, required: true },
    /** As the provider said when the person accepted the invitation if verified, else the invited address. */
    email: { type: 'string' },
    name: { type: 'string' },
    /** How many API keys the member created (absent: none), moved with each creation: the cascade checks it saw them all. */
    keysMade: { type: 'number' },
    /**
     * Where mail goes (docs/api.md, "Mail"): an email the sign-in provider verified
     * (`email_verified`), recorded at acceptance and by the member's own members/notifications
     * calls; absent, the member gets no mail.
     */
    mailAddress: { type: 'string' },
    /** What the member chose of their notifications (domain/notifications.ts); absent fields follow the role. */
    notifications: {
      type: 'map',
      properties: {
        weeklyDigest: { type: 'boolean' },
        alerts: { type: ['immediately', 'daily', 'off'] as const },
        projects: { type: 'list', items: { type: 'string' } },
      },
    },
    ...timestamps,
  },
  indexes: {
    byPerson: { pk: key('pk', 'member#${personKey}', ['personKey']), sk: key('sk', 'member', []) },
    byAccount: {
      index: 'gsi1',
      pk: key('gsi1pk', 'account#${accountId}#members', ['accountId']),
      sk: key('gsi1sk', '${createdAt}#${id}', ['createdAt', 'id']),
    },
    byId: {
      index: 'gsi2',
      pk: key('gsi2pk', 'member-id#${id}', ['id']),
      sk: key('gsi2sk', 'member', []),
    },
  },
});

/** A single-use invitation to an account, by the SHA-256 of its token; deleted when accepted, expired by TTL. */
export const Invitation = new Entity({
  model: { entity: 'invitation', version: '1', service: SERVICE },
  attributes: {
    tokenHash: { type: 'string', required: true, readOnly: true },
    id: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
    email: { type: 'string', required: true, readOnly: true },
    role: { type: ['viewer', 'admin', 'owner'] as const, required: true, readOnly: true },
    /** Who invited: `key:<keyId>`, `member:<memberId>` or `cli`; checked again at acceptance (operations/members.ts). */
    invitedBy: { type: 'string', required: true, readOnly: true },
    /** The inviter as named when inviting, for members/invitations (absent on invitations made before it was recorded). */
    inviter: maker,
    /** Epoch seconds: the table's TTL attribute. */
    expiresAt: { type: 'number', required: true, readOnly: true },
    ...timestamps,
  },
  indexes: {
    byToken: { pk: key('pk', 'invitation#${tokenHash}', ['tokenHash']), sk: key('sk', 'invitation', []) },
    byAccount: {
      index: 'gsi1',
      pk: key('gsi1pk', 'account#${accountId}#invitations', ['accountId']),
      sk: key('gsi1sk', '${createdAt}#${id}', ['createdAt', 'id']),
    },
    byId: {
      index: 'gsi2',
      pk: key('gsi2pk', 'invitation-id#${id}', ['id']),
      sk: key('gsi2sk', 'invitation', []),
    },
  },
});

export const Project = new Entity({
  model: { entity: 'project', version: '1', service: SERVICE },
  attributes: {
    id: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
    name: { type: 'string', required: true },
    nameLower: { type: 'string', required: true, hidden: true },
    description: { type: 'string' },
    state: { type: PROJECT_STATES, required: true },
    ...timestamps,
  },
  indexes: {
    byId: { pk: key('pk', 'project#${id}', ['id']), sk: key('sk', 'project', []) },
    byName: {
      index: 'gsi1',
      pk: key('gsi1pk', 'account#${accountId}#projects', ['accountId']),
      sk: key('gsi1sk', '${nameLower}#${id}', ['nameLower', 'id']),
    },
  },
});

export const ContentSet = new Entity({
  model: { entity: 'contentset', version: '1', service: SERVICE },
  attributes: {
    id: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
    projectId: { type: 'string', required: true, readOnly: true },
    key: { type: 'string', required: true },
    keyLower: { type: 'string', required: true, hidden: true },
    name: { type: 'string', required: true },
    nameLower: { type: 'string', required: true, hidden: true },
    description: { type: 'string' },
    schema: { type: SCHEMAS, required: true, readOnly: true },
    schemaConfig: { type: 'any', required: true },
    disallowAutoContentCreation: { type: 'boolean', required: true },
    publicAggregates: { type: 'boolean', required: true },
    revokeWindowSeconds: { type: 'number', required: true },
    /** The alert settings given (`enabled`, `minResponses`, `minDrop`); absent fields take their defaults (domain/alerts.ts). */
    alerts: { type: 'any' },
    // Absent on sets saved before these settings: their defaults apply (domain/schemas.ts onePerVisitorOf).
    onePerVisitor: { type: 'boolean' },
    publicMinCount: { type: 'number' },
    /** The quarantine settings given (domain/quarantine.ts); absent fields take their defaults. */
    quarantine: { type: 'any' },
    /** Held by the screening before it was counted: its creation's contribution, which no counter took (stream/counting.ts). */
    uncounted: { type: 'any', hidden: true, readOnly: true },
    state: { type: CONTENT_STATES, required: true },
    ...timestamps,
  },
  indexes: {
    byId: { pk: key('pk', 'set#${id}', ['id']), sk: key('sk', 'set', []) },
    byName: {
      index: 'gsi1',
      pk: key('gsi1pk', 'account#${accountId}#sets', ['accountId']),
      sk: key('gsi1sk', '${nameLower}#${id}', ['nameLower', 'id']),
    },
    byKey: {
      index: 'gsi2',
      pk: key('gsi2pk', 'account#${accountId}#setkeys', ['accountId']),
      sk: key('gsi2sk', '${keyLower}#${id}', ['keyLower', 'id']),
    },
  },
});

/** Holds a set key within its project; written and moved together with the set. */
export const ContentSetKey = new Entity({
  model: { entity: 'contentsetkey', version: '1', service: SERVICE },
  attributes: {
    projectId: { type: 'string', required: true, readOnly: true },
    key: { type: 'string', required: true, readOnly: true },
    contentSetId: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
  },
  indexes: {
    byKey: { pk: key('pk', 'setkey#${projectId}#${key}', ['projectId', 'key']), sk: key('sk', 'setkey', []) },
  },
});

/** Holds a content key within its set; written and moved together with the item. */
export const ContentKey = new Entity({
  model: { entity: 'contentkey', version: '1', service: SERVICE },
  attributes: {
    contentSetId: { type: 'string', required: true, readOnly: true },
    keyHash: { type: 'string', required: true, readOnly: true },
    contentItemId: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
  },
  indexes: {
    byKey: {
      pk: key('pk', 'contentkey#${contentSetId}#${keyHash}', ['contentSetId', 'keyHash']),
      sk: key('sk', 'contentkey', []),
    },
  },
});

/**
 * The items whose keys decode to one text (the form a widget's GET reads), as
 * `<item createdAt>#<item id>` members; kept by content-keys.ts in the transactions that
 * write or move the key items. An alias left with no members has no `members` attribute.
 */
export const ContentKeyAlias = new Entity({
  model: { entity: 'contentkeyalias', version: '1', service: SERVICE },
  attributes: {
    contentSetId: { type: 'string', required: true, readOnly: true },
    decodedKeyHash: { type: 'string', required: true, readOnly: true },
    members: { type: 'set', items: 'string' },
  },
  indexes: {
    byDecodedKey: {
      pk: key('pk', 'contentkeyalias#${contentSetId}#${decodedKeyHash}', ['contentSetId', 'decodedKeyHash']),
      sk: key('sk', 'contentkeyalias', []),
    },
  },
});

export const ContentItem = new Entity({
  model: { entity: 'contentitem', version: '1', service: SERVICE },
  attributes: {
    id: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
    projectId: { type: 'string', required: true, readOnly: true },
    contentSetId: { type: 'string', required: true, readOnly: true },
    key: { type: 'string', required: true },
    keyPrefixLower: { type: 'string', required: true, hidden: true },
    title: { type: 'string' },
    titlePrefixLower: { type: 'string', required: true, hidden: true },
    description: { type: 'string' },
    url: { type: 'string' },
    state: { type: CONTENT_STATES, required: true },
    ...timestamps,
  },
  indexes: {
    byId: { pk: key('pk', 'content#${id}', ['id']), sk: key('sk', 'content', []) },
    byKey: {
      index: 'gsi1',
      pk: key('gsi1pk', 'account#${accountId}#contentkeys', ['accountId']),
      sk: key('gsi1sk', '${keyPrefixLower}#${id}', ['keyPrefixLower', 'id']),
    },
    byTitle: {
      index: 'gsi2',
      pk: key('gsi2pk', 'account#${accountId}#contenttitles', ['accountId']),
      sk: key('gsi2sk', '${titlePrefixLower}#${id}', ['titlePrefixLower', 'id']),
    },
  },
});

export const Response = new Entity({
  model: { entity: 'response', version: '1', service: SERVICE },
  attributes: {
    id: { type: 'string', required: true, readOnly: true },
    accountId: { type: 'string', required: true, readOnly: true },
    projectId: { type: 'string', required: true, readOnly: true },
    contentSetId: { type: 'string', required: true, readOnly: true },
    contentItemId: { type: 'string', required: true, readOnly: true },
    schema: { type: SCHEMAS, required: true, readOnly: true },
    state: { type: RESPONSE_STATES, required: true },
    value: { type: 'any', required: true },
    /** How the value is counted, fixed when it is written so later set edits cannot skew counts. */
    contribution: { type: 'any', required: true },
    context: { type: 'any' },
    profiling: { type: 'any' },
    /** profiling.userId, as a key of the byUser index (absent when the response names no user). */
    userId: { type: 'string', readOnly: true },
    /** `<accountId>#<userId>` and `<createdAt>#<id>`: the byUser index's key composites, set with userId only. */
    userKey: { type: 'string', readOnly: true },
    userSort: { type: 'string', readOnly: true },
    revokeTokenHash: { type: 'string', hidden: true },
    revokeExpiresAt: { type: 'string' },
    /** The caller's id of an imported response (responses/import): its id is derived from it, and webhooks skip its creation. */
    importId: { type: 'string', readOnly: true },
    /** An anonymous response's visitor hash of the day on its item (domain/visitor-hash.ts), for the flood rules: never an address. */
    visitor: { type: 'string', readOnly: true },
    /** An anonymous response's address hash of the day on its item (domain/visitor-hash.ts `addressHash`), for the flood rules: never an address. */
    address: { type: 'string', readOnly: true },
    /** `{ reason, at }`: why and when the screening held it (domain/quarantine.ts); kept after a release or discard. */
    quarantine: { type: 'any' },
    /** Held by the screening before it was counted: its creation's contribution, which no counter took (stream/counting.ts). */
    uncounted: { type: 'any', hidden: true, readOnly: true },
    /**
     * The write shard of the list indexes below (domain/response-shards.ts), derived from the
     * id. Responses written before shards have none: their list keys lack the `#<shard>`.
     */
    shard: { type: 'string', hidden: true, readOnly: true, watch: ['id'], set: (_: unknown, item: { id: string }) => responseShard(item.id) },
    ...timestamps,
  },
  indexes: {
    byId: { pk: key('pk', 'response#${id}', ['id']), sk: key('sk', 'response', []) },
    byContentItem: {
      index: 'gsi1',
      pk: key('gsi1pk', 'content#${contentItemId}#responses#${shard}', ['contentItemId', 'shard']),
      sk: key('gsi1sk', '${createdAt}#${id}', ['createdAt', 'id']),
    },
    byContentSet: {
      index: 'gsi2',
      pk: key('gsi2pk', 'set#${contentSetId}#responses#${shard}', ['contentSetId', 'shard']),
      sk: key('gsi2sk', '${createdAt}#${id}', ['createdAt', 'id']),
    },
    byProject: {
      index: 'gsi3',
      pk: key('gsi3pk', 'project#${projectId}#responses#${shard}', ['projectId', 'shard']),
      sk: key('gsi3sk', '${createdAt}#${id}', ['createdAt', 'id']),
    },
    byUser: {
      index: 'gsi4',
      // Sparse: keys only for responses that name a user. ElectroDB checks an index with a
      // condition strictly (all of its composites or none), hence the two derived attributes.
      condition: (attributes: { userKey?: string }) => attributes.userKey !== undefined,
      pk: key('gsi4pk', 'user#${userKey}', ['userKey']),
      sk: key('gsi4sk', '${userSort}', ['userSort']),
    },
  },
});

const entities = { Account, ApiKey, Member, Invitation, Project, ContentSet, ContentSetKey, ContentKey, ContentKeyAlias, ContentItem, Response };

/** The ElectroDB service, plus the table's clients (TableClient) for the calls ElectroDB does not model (cross-entity BatchGetItem, the hot path's PutItem). */
export function createStore({ documentClient, rawClient, tableName }: TableClient) {
  return Object.assign(new Service(entities, { client: documentClient, table: tableName }), { documentClient, rawClient, tableName });
}

export type Store = ReturnType<typeof createStore>;
export type AccountItem = EntityItem<typeof Account>;
export type ApiKeyItem = EntityItem<typeof ApiKey>;
export type MemberItem = EntityItem<typeof Member>;
export type InvitationItem = EntityItem<typeof Invitation>;
export type ProjectItem = EntityItem<typeof Project>;
export type ContentSetItem = EntityItem<typeof ContentSet>;
export type NewContentSet = CreateEntityItem<typeof ContentSet>;
export type ContentItemItem = EntityItem<typeof ContentItem>;
export type NewContentItem = CreateEntityItem<typeof ContentItem>;
export type ResponseItem = EntityItem<typeof Response>;
