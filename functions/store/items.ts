/**
 * The hot path's items, raw: keys, new items and the transaction writes of the anonymous
 * operations (responses/create, edit, remove, getAggregates, and the API-key check every
 * keyed call makes), written with the document client directly.
 *
 * Why not ElectroDB here: its runtime and its JSON-schema dependency are ~220 KB of the
 * ~390 KB each Lambda bundle weighed; the widgets' functions, scaled out on every traffic
 * peak, pay that size in cold starts. The items are byte for byte what the ElectroDB
 * entities of entities.ts write (same keys, same attributes, same `__edb_e__` /
 * `__edb_v__` identity, same conditions): test/unit/items.test.ts builds each one both
 * ways and compares them, so the two cannot drift. The entities stay the source of the key
 * design (the access-pattern table in entities.ts).
 *
 * Nothing here imports ElectroDB (tests check the bundles).
 */
import type { PutCommandInput, TransactWriteCommandInput, UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { responseShard } from '../domain/response-shards';
import type { ContentItemItem, ContentSetItem, NewContentItem, ResponseItem } from './entities';

export type ItemKey = { pk: string; sk: string };
/** One entry of a TransactWriteItems request, in the document client's form. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type RawItem = Record<string, unknown>;

/** Entity names and model version as ElectroDB stores them in `__edb_e__` / `__edb_v__`. */
const ENTITY = {
  apiKey: 'apikey',
  member: 'member',
  project: 'project',
  contentSet: 'contentset',
  contentKey: 'contentkey',
  contentKeyAlias: 'contentkeyalias',
  contentItem: 'contentitem',
  response: 'response',
} as const;
const MODEL_VERSION = '1';

const identity = (entity: string) => ({ __edb_e__: entity, __edb_v__: MODEL_VERSION });

/** Table keys of the entities the hot path reads, checks or writes (entities.ts `byId` / `byKey` indexes). */
export const keys = {
  account: (id: string): ItemKey => ({ pk: `account#${id}`, sk: 'account' }),
  apiKey: (keyHash: string): ItemKey => ({ pk: `apikey#${keyHash}`, sk: 'apikey' }),
  /** A person's membership, by the hash of issuer and subject (functions/api/auth.ts `personKey`). */
  member: (personKey: string): ItemKey => ({ pk: `member#${personKey}`, sk: 'member' }),
  project: (id: string): ItemKey => ({ pk: `project#${id}`, sk: 'project' }),
  contentSet: (id: string): ItemKey => ({ pk: `set#${id}`, sk: 'set' }),
  contentKey: (contentSetId: string, keyHash: string): ItemKey => ({ pk: `contentkey#${contentSetId}#${keyHash}`, sk: 'contentkey' }),
  contentKeyAlias: (contentSetId: string, decodedKeyHash: string): ItemKey => ({
    pk: `contentkeyalias#${contentSetId}#${decodedKeyHash}`,
    sk: 'contentkeyalias',
  }),
  contentItem: (id: string): ItemKey => ({ pk: `content#${id}`, sk: 'content' }),
  response: (id: string): ItemKey => ({ pk: `response#${id}`, sk: 'response' }),
};

/** Attributes with an undefined value are not written (ElectroDB leaves them out too). */
function defined<T extends Record<string, unknown>>(attributes: T): T {
  return Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined)) as T;
}

/** A Put that creates the item and fails if its key is taken, as ElectroDB's `create`. */
function createPut(tableName: string, item: RawItem): TransactItem {
  return {
    Put: {
      Item: item,
      TableName: tableName,
      ConditionExpression: 'attribute_not_exists(#pk) AND attribute_not_exists(#sk)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
    },
  };
}

/** What a new response stores (entities.ts `Response`). */
export type NewResponse = Omit<ResponseItem, 'revokeTokenHash'> & { revokeTokenHash?: string };

/**
 * The byUser index attributes of a response that names a user (none otherwise: the index is
 * sparse). Here rather than in entities.ts, so that the hot path can set them without ElectroDB.
 */
export function userIndexAttributes(response: { accountId: string; userId?: string; createdAt: string; id: string }) {
  return response.userId === undefined
    ? {}
    : { userId: response.userId, userKey: `${response.accountId}#${response.userId}`, userSort: `${response.createdAt}#${response.id}` };
}

/** The responses' list indexes: by content item (gsi1), set (gsi2), project (gsi3). */
export type ResponseListIndex = 'gsi1' | 'gsi2' | 'gsi3';

/**
 * A list partition of responses: `<shard>` given, one of its write shards
 * (domain/response-shards.ts); none, where responses written before shards are.
 */
export function responseListPartition(index: ResponseListIndex, scopeId: string, shard?: string): string {
  const prefix = index === 'gsi1' ? 'content' : index === 'gsi2' ? 'set' : 'project';
  return `${prefix}#${scopeId}#responses${shard === undefined ? '' : `#${shard}`}`;
}

/** Built with Object.assign, not spreads: V8 copies a spread followed by more properties ten times slower, and this runs on every response. */
export function responseItem(response: NewResponse): RawItem {
  const { id, contentItemId, contentSetId, projectId, createdAt } = response;
  const shard = responseShard(id);
  const sort = `${createdAt}#${id}`;
  return Object.assign(
    defined(response),
    keys.response(id),
    {
      shard,
      gsi1pk: responseListPartition('gsi1', contentItemId, shard),
      gsi1sk: sort,
      gsi2pk: responseListPartition('gsi2', contentSetId, shard),
      gsi2sk: sort,
      gsi3pk: responseListPartition('gsi3', projectId, shard),
      gsi3sk: sort,
    },
    // byUser (gsi4) is sparse: keyed only when the response names a person.
    response.userKey === undefined ? {} : { gsi4pk: `user#${response.userKey}`, gsi4sk: response.userSort },
    identity(ENTITY.response),
  );
}

export function contentItemItem(item: NewContentItem): RawItem {
  const { id, accountId, keyPrefixLower, titlePrefixLower } = item;
  return {
    ...defined(item),
    ...keys.contentItem(id),
    gsi1pk: `account#${accountId}#contentkeys`,
    gsi1sk: `${keyPrefixLower}#${id}`,
    gsi2pk: `account#${accountId}#contenttitles`,
    gsi2sk: `${titlePrefixLower}#${id}`,
    ...identity(ENTITY.contentItem),
  };
}

export interface ContentKeyRecord {
  contentSetId: string;
  keyHash: string;
  contentItemId: string;
  accountId: string;
}

export function contentKeyItem(record: ContentKeyRecord): RawItem {
  return { ...record, ...keys.contentKey(record.contentSetId, record.keyHash), ...identity(ENTITY.contentKey) };
}

export const createResponse = (tableName: string, response: NewResponse) => createPut(tableName, responseItem(response));

/** Attributes a visitor's replaced response keeps from its first version: its creation, and so its place in every list. */
const KEPT_ON_REPLACEMENT = new Set(['createdAt', 'gsi1sk', 'gsi2sk', 'gsi3sk', 'userSort', 'gsi4sk']);
/** A response's optional attributes: a replacement that has none of one removes the first version's. */
const OPTIONAL_RESPONSE_ATTRIBUTES = ['context', 'profiling', 'revokeTokenHash', 'revokeExpiresAt', 'userId', 'userKey', 'userSort', 'gsi4pk', 'gsi4sk'];

/**
 * A visitor's response under its deterministic id (domain/visitor-hash.ts), as one UpdateItem:
 * it creates the response, or replaces the visitor's earlier one of the day on the same
 * key, which the stream shows as an edit (its counts move from the old value to the new).
 * The first version's creation time and list sort keys stay, so no index key changes and
 * the replacement costs the writes of a new response, not a delete and a put per index.
 */
export function visitorResponseUpdate(tableName: string, response: NewResponse): UpdateCommandInput {
  const item = responseItem(response);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments: string[] = [];
  let index = 0;
  for (const [attribute, value] of Object.entries(item)) {
    if (attribute === 'pk' || attribute === 'sk') continue;
    const name = `#a${index}`;
    const placeholder = `:a${index++}`;
    names[name] = attribute;
    values[placeholder] = value;
    assignments.push(KEPT_ON_REPLACEMENT.has(attribute) ? `${name} = if_not_exists(${name}, ${placeholder})` : `${name} = ${placeholder}`);
  }
  const removed = OPTIONAL_RESPONSE_ATTRIBUTES.filter((attribute) => !(attribute in item)).map((attribute, position) => {
    names[`#r${position}`] = attribute;
    return `#r${position}`;
  });
  return {
    TableName: tableName,
    Key: keys.response(response.id),
    UpdateExpression: `SET ${assignments.join(', ')}${removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''}`,
    // A held response (quarantined, discarded) is not replaced: its visitor cannot vote it free.
    ConditionExpression: 'attribute_not_exists(#heldState) OR NOT #heldState IN (:quarantined, :discarded)',
    ExpressionAttributeNames: { ...names, '#heldState': 'state' },
    ExpressionAttributeValues: { ...values, ':quarantined': 'quarantined', ':discarded': 'discarded' },
  };
}
/**
 * What a visitor's stored response keeps from its first version (KEPT_ON_REPLACEMENT), as
 * the function instance that wrote it last knows it (operations/visitor-identity.ts): its
 * creation time (and so its list sort keys), and its person sort key while it names one.
 */
export interface KeptOnReplacement {
  createdAt: string;
  userSort?: string;
}

/** What the stored response keeps after `response` is written over one that kept `before` (none: it is created). */
export function keptAfter(response: NewResponse, before: KeptOnReplacement | undefined): KeptOnReplacement {
  const userSort = response.userSort === undefined ? undefined : (before?.userSort ?? response.userSort);
  return { createdAt: before?.createdAt ?? response.createdAt, ...(userSort === undefined ? {} : { userSort }) };
}

/**
 * The replacement of a visitor's response this instance wrote (it knows what the item keeps:
 * `kept`), as a PutItem of the very item `visitorResponseUpdate` makes of it: DynamoDB Local
 * takes a PutItem that replaces an item at 1.7 to 2.3 times the rate of that UpdateItem
 * (measured at concurrency 16; the update's expression size made no difference), and the
 * write units are the same (the larger of the two versions; each index entry rewritten in
 * place, its keys unchanged). A put drops what it does not carry, so it is conditional on
 * the item being what this instance wrote: the same first version (creation, person sort
 * key), never held (no hold record, no uncounted contribution: a hold writes both and a
 * release keeps them), not held now. Refused, it returns the item as it was; the caller
 * then sends `visitorResponseUpdate` (erased since, or written by another instance), or
 * stops (held).
 */
export function visitorResponseReplacement(tableName: string, response: NewResponse, kept: KeptOnReplacement): PutCommandInput {
  const { createdAt, userSort } = keptAfter(response, kept);
  const item = responseItem({ ...response, createdAt, ...(userSort === undefined ? {} : { userSort }) });
  const userGuard = response.userSort === undefined ? '' : kept.userSort === undefined ? ' AND attribute_not_exists(#userSort)' : ' AND #userSort = :userSort';
  return {
    TableName: tableName,
    Item: item,
    ConditionExpression: `#createdAt = :createdAt AND attribute_not_exists(#quarantine) AND attribute_not_exists(#uncounted) AND NOT #state IN (:quarantined, :discarded)${userGuard}`,
    ExpressionAttributeNames: {
      '#createdAt': 'createdAt',
      '#quarantine': 'quarantine',
      '#uncounted': 'uncounted',
      '#state': 'state',
      ...(userGuard ? { '#userSort': 'userSort' } : {}),
    },
    ExpressionAttributeValues: {
      ':createdAt': kept.createdAt,
      ':quarantined': 'quarantined',
      ':discarded': 'discarded',
      ...(kept.userSort !== undefined && response.userSort !== undefined ? { ':userSort': kept.userSort } : {}),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

/**
 * A visitor's first response of the day on an item, as the PutItem of a new response
 * (`createResponse`'s condition: no item under its id). DynamoDB Local takes it at about 1.6
 * times the rate of `visitorResponseUpdate` creating the same item, and the function builds
 * and sends a third of the bytes (no expression of every attribute); the write units are the
 * same. Refused, the visitor already answered today through another instance (or it aged
 * out of this one's memory): it returns the stored item, which the caller replaces with
 * `visitorResponseReplacement` (or leaves, held).
 */
export function visitorResponseCreation(tableName: string, response: NewResponse): PutCommandInput {
  return { ...createPut(tableName, responseItem(response)).Put, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } as PutCommandInput;
}

/** What a stored response (marshalled, as a refused write returns it) keeps on replacement; undefined when a put may not replace it (hold records, an uncounted contribution). */
export function keptByStored(stored: Record<string, { S?: string }> | undefined): KeptOnReplacement | undefined {
  const createdAt = stored?.createdAt?.S;
  if (!stored || createdAt === undefined || stored.quarantine !== undefined || stored.uncounted !== undefined) return undefined;
  const userSort = stored.userSort?.S;
  return { createdAt, ...(userSort === undefined ? {} : { userSort }) };
}

export const createContentItem = (tableName: string, item: NewContentItem) => createPut(tableName, contentItemItem(item));
export const createContentKey = (tableName: string, record: ContentKeyRecord) => createPut(tableName, contentKeyItem(record));

/**
 * An alias item's member change: ADD (only while the set has room for one more member,
 * see content-keys.ts MAX_ALIAS_MEMBERS) or DELETE, with the alias's own attributes set
 * as ElectroDB's `update` sets them.
 */
export function aliasMemberUpdate(
  tableName: string,
  alias: { contentSetId: string; decodedKeyHash: string },
  change: 'add' | 'delete',
  member: string,
  maxMembers: number,
): TransactItem {
  const operation = change === 'add' ? 'ADD' : 'DELETE';
  return {
    Update: {
      UpdateExpression: `SET #contentSetId = :contentSetId_u0, #decodedKeyHash = :decodedKeyHash_u0, #__edb_e__ = :__edb_e___u0, #__edb_v__ = :__edb_v___u0 ${operation} #members :members_u0`,
      ExpressionAttributeNames: {
        '#members': 'members',
        '#contentSetId': 'contentSetId',
        '#decodedKeyHash': 'decodedKeyHash',
        '#__edb_e__': '__edb_e__',
        '#__edb_v__': '__edb_v__',
      },
      ExpressionAttributeValues: {
        ...(change === 'add' ? { ':members0': maxMembers } : {}),
        ':members_u0': new Set([member]),
        ':contentSetId_u0': alias.contentSetId,
        ':decodedKeyHash_u0': alias.decodedKeyHash,
        ':__edb_e___u0': ENTITY.contentKeyAlias,
        ':__edb_v___u0': MODEL_VERSION,
      },
      TableName: tableName,
      Key: keys.contentKeyAlias(alias.contentSetId, alias.decodedKeyHash),
      ...(change === 'add' ? { ConditionExpression: 'attribute_not_exists(#members) OR size(#members) < :members0' } : {}),
    },
  };
}

/**
 * A ConditionCheck that the item exists and is in the `active` state, plus `equals`
 * (attribute name -> value) when given: what a response's write requires of its project,
 * set and item at the instant it commits.
 */
export function activeCheck(tableName: string, key: ItemKey, equals: Record<string, string> = {}): TransactItem {
  const names: Record<string, string> = { '#state': 'state' };
  const values: Record<string, unknown> = { ':active': 'active' };
  const clauses = ['#state = :active'];
  Object.entries(equals).forEach(([attribute, value], index) => {
    names[`#e${index}`] = attribute;
    values[`:e${index}`] = value;
    clauses.push(`#e${index} = :e${index}`);
  });
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: key,
      ConditionExpression: clauses.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/* Reading raw items. Only the attributes the hot path uses; hidden and key attributes are ignored. */

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  level: 'viewer' | 'admin';
  /** The key's label, named as the actor of the audit log. */
  label?: string;
  revokedAt?: string;
  lastUsedAt?: string;
}

export function apiKeyOf(raw: RawItem | undefined): ApiKeyRecord | undefined {
  if (!raw || raw.__edb_e__ !== ENTITY.apiKey) return undefined;
  return {
    id: raw.id as string,
    accountId: raw.accountId as string,
    level: raw.level as ApiKeyRecord['level'],
    ...(typeof raw.label === 'string' ? { label: raw.label } : {}),
    revokedAt: raw.revokedAt as string | undefined,
    lastUsedAt: raw.lastUsedAt as string | undefined,
  };
}

export interface MemberRecord {
  id: string;
  accountId: string;
  role: 'viewer' | 'admin' | 'owner';
  /** As recorded when the person joined: whom the audit log names (functions/api/auth.ts `memberIdentity`). */
  email?: string;
  name?: string;
}

export function memberOf(raw: RawItem | undefined): MemberRecord | undefined {
  if (!raw || raw.__edb_e__ !== ENTITY.member) return undefined;
  return {
    id: raw.id as string,
    accountId: raw.accountId as string,
    role: raw.role as MemberRecord['role'],
    ...(typeof raw.email === 'string' ? { email: raw.email } : {}),
    ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
  };
}

export function contentSetOf(raw: RawItem | undefined): ContentSetItem | undefined {
  if (!raw || raw.__edb_e__ !== ENTITY.contentSet) return undefined;
  const { pk: _pk, sk: _sk, __edb_e__: _e, __edb_v__: _v, keyLower: _k, nameLower: _n, gsi1pk: _g1, gsi1sk: _s1, gsi2pk: _g2, gsi2sk: _s2, ...set } = raw;
  return set as unknown as ContentSetItem;
}

export function contentItemOf(raw: RawItem | undefined): ContentItemItem | undefined {
  if (!raw || raw.__edb_e__ !== ENTITY.contentItem) return undefined;
  const {
    pk: _pk,
    sk: _sk,
    __edb_e__: _e,
    __edb_v__: _v,
    keyPrefixLower: _k,
    titlePrefixLower: _t,
    gsi1pk: _g1,
    gsi1sk: _s1,
    gsi2pk: _g2,
    gsi2sk: _s2,
    ...item
  } = raw;
  return item as unknown as ContentItemItem;
}

export function contentKeyTarget(raw: RawItem | undefined): string | undefined {
  return raw && raw.__edb_e__ === ENTITY.contentKey ? (raw.contentItemId as string) : undefined;
}

export function aliasMembers(raw: RawItem | undefined): string[] {
  const members = raw && raw.__edb_e__ === ENTITY.contentKeyAlias ? raw.members : undefined;
  return members instanceof Set ? [...(members as Set<string>)] : Array.isArray(members) ? (members as string[]) : [];
}

export function projectStateOf(raw: RawItem | undefined): { id: string; accountId: string; state: string } | undefined {
  if (!raw || raw.__edb_e__ !== ENTITY.project) return undefined;
  return { id: raw.id as string, accountId: raw.accountId as string, state: raw.state as string };
}

/** A response as stored, with its token hash (which get and list never return). */
export type StoredResponse = ResponseItem & { revokeTokenHash?: string };

export function responseOf(raw: RawItem | undefined): StoredResponse | undefined {
  if (!raw || raw.__edb_e__ !== ENTITY.response) return undefined;
  const {
    pk: _pk,
    sk: _sk,
    __edb_e__: _e,
    __edb_v__: _v,
    shard: _shard,
    gsi1pk: _g1,
    gsi1sk: _s1,
    gsi2pk: _g2,
    gsi2sk: _s2,
    gsi3pk: _g3,
    gsi3sk: _s3,
    ...response
  } = raw;
  return response as unknown as StoredResponse;
}
