/**
 * Content keys as the widgets' GET reads them.
 *
 * The published widgets send `?$p=` unencoded, and API Gateway's REST proxy hands the
 * handler percent-decoded query parameters only (no raw query string): the widget of the
 * page `https://blog.example/caf%C3%A9?q=hello%20world` stores its responses under that
 * key (POST keeps the body as sent) but asks for the counts of
 * `https://blog.example/café?q=hello world`. A caller that encodes `$p` properly asks for
 * the exact key, and the server cannot tell the two requests apart. So the fix lives in
 * the data, and works the same on Lambda and in the local server:
 *
 * - every key with %-escapes also has an alias item under the hash of its decoded form
 *   (domain/percent-escapes.ts, `decodeAsApiGateway`), written in the transaction that
 *   writes the key item and moved in the one that moves it;
 * - the lookup by (contentSetId, key) reads the set, the exact key item and the alias of
 *   the key's text in ONE BatchGetItem, and prefers the exact key.
 *
 * Why the exact key wins: a text that is itself a stored key is asked for by callers that
 * encode (they want that key) and by widgets of a page whose URL is that text (they want
 * it too); only a widget of a page with escapes wants the alias. So when a page
 * `?q=a%2Bb` and a page `?q=a+b` both have items, the first one's widget reads the
 * second one's counts: not restorable from a decoded query.
 *
 * Distinct keys can share a decoded form (`caf%C3%A9` and `caf%c3%a9`, `%2B` and `%2b`).
 * The alias is therefore no uniqueness item: it holds the set of its items as
 * `<createdAt>#<id>`, written with unconditional ADD and DELETE, so it never makes a key's
 * write fail or conflict with another key's condition; the lookup picks the oldest member,
 * a stable choice (the other keys' widgets read that item's counts: not restorable
 * either). A member set is capped at MAX_ALIAS_MEMBERS so that nobody can grow the item
 * (read by every widget of that page) towards DynamoDB's 400 KB item limit; a key whose
 * alias is full is written without it, and its widget reads the oldest member.
 */
import { decodeAsApiGateway, hasPercentEscapes } from '../domain/percent-escapes';
import { keyHash } from '../domain/text';
import { getRawItems } from '../store/batch';
import type { TableClient } from '../store/dynamodb-clients';
import type { ContentItemItem } from '../store/entities';
import { aliasMembers, aliasMemberUpdate, contentKeyTarget, keys, type TransactItem } from '../store/items';
import { conflictPause, isConflict, writeTransaction } from '../store/transactions';

/** Keys sharing one decoded form that get an alias; more are written without one. */
export const MAX_ALIAS_MEMBERS = 16;

/** Attempts of a key transaction canceled by a concurrent transaction on one of its items. */
const CONFLICT_ATTEMPTS = 4;

/** How an item is listed in an alias: oldest first when sorted, then by id. */
export function aliasMember(item: Pick<ContentItemItem, 'id' | 'createdAt'>): string {
  return `${item.createdAt}#${item.id}`;
}

/** SHA-256 of the text a widget's GET reads for this key; undefined when that text is the key itself. */
export function decodedKeyHashOf(key: string): string | undefined {
  return hasPercentEscapes(key) ? keyHash(decodeAsApiGateway(key)) : undefined;
}

export interface AliasChange {
  decodedKeyHash: string;
  change: 'add' | 'delete';
}

/**
 * The alias writes when an item's key goes from `from` (undefined for a new item) to `to`.
 * Two keys with the same decoded form share the alias, so such a move changes nothing.
 */
export function aliasChanges(from: string | undefined, to: string): AliasChange[] {
  const before = from === undefined ? undefined : decodedKeyHashOf(from);
  const after = decodedKeyHashOf(to);
  if (before === after) return [];
  return [
    ...(before === undefined ? [] : [{ decodedKeyHash: before, change: 'delete' as const }]),
    ...(after === undefined ? [] : [{ decodedKeyHash: after, change: 'add' as const }]),
  ];
}

/** Why a key transaction did not commit: a condition of its own writes, or a concurrent transaction that kept winning. */
export type KeyTransactionOutcome = { canceled: false } | { canceled: true; conflict: boolean; reasons: string[] };

/**
 * Runs the transaction that writes or moves a content key item (`writes`: the key items,
 * the content item, a first response, checks of the project and set...) together with the
 * alias changes of that key. Answers whether it was canceled by a condition of `writes`
 * (the key is taken, the item changed meanwhile, a checked entity is not active): never
 * because of an alias. `reasons` are the codes of `writes`, in their order.
 *
 * - A full alias refuses its ADD (the only condition an alias write has): the transaction
 *   is run again without that write.
 * - A concurrent transaction on one of the items (two keys sharing an alias, two writers
 *   of one key) cancels it with TransactionConflict: it is run again, a few times.
 */
export async function writeKeyTransaction(
  table: TableClient,
  alias: { contentSetId: string; member: string; changes: AliasChange[] },
  writes: TransactItem[],
): Promise<KeyTransactionOutcome> {
  let changes = alias.changes;
  for (let attempt = 1; ; attempt++) {
    const aliasWrites = changes.map(({ decodedKeyHash, change }) =>
      aliasMemberUpdate(table.tableName, { contentSetId: alias.contentSetId, decodedKeyHash }, change, alias.member, MAX_ALIAS_MEMBERS),
    );
    const outcome = await writeTransaction(table, [...writes, ...aliasWrites]);
    if (!outcome.canceled) return outcome;
    const { reasons } = outcome;
    const conflict = isConflict(reasons);
    if (conflict && attempt < CONFLICT_ATTEMPTS) {
      await conflictPause(attempt);
      continue;
    }
    const own = reasons.slice(0, writes.length).map((reason) => reason.code);
    const fullAliases = changes.filter((_, index) => reasons[writes.length + index]?.code === 'ConditionalCheckFailed');
    if (conflict || own.some((code) => code !== 'None') || fullAliases.length === 0) return { canceled: true, conflict, reasons: own };
    changes = changes.filter((change) => !fullAliases.includes(change));
  }
}

export interface ResolvedContentKey {
  /** The content set's raw item (read it with items.ts contentSetOf), undefined when there is no such set. */
  setRaw: Record<string, unknown> | undefined;
  /** The item the key names, undefined when none does (nobody answered on that page yet). */
  contentItemId: string | undefined;
  /** `key`: the exact key; `alias`: a key whose decoded form is `key` (the widgets' GET). */
  matched?: 'key' | 'alias';
}

/**
 * The content set and the item of (contentSetId, key) in ONE BatchGetItem: the set, the
 * exact key item, and the alias of `key` taken as a decoded form. The exact key wins; else
 * the oldest item whose key decodes to `key` (see the module comment for why).
 */
export async function resolveContentKey(
  table: TableClient,
  contentSetId: string,
  key: string,
  options: { consistent?: boolean } = {},
): Promise<ResolvedContentKey> {
  const hash = keyHash(key);
  const [setRaw, keyRaw, aliasRaw] = await getRawItems(
    table,
    [keys.contentSet(contentSetId), keys.contentKey(contentSetId, hash), keys.contentKeyAlias(contentSetId, hash)],
    options,
  );
  const exact = contentKeyTarget(keyRaw);
  if (exact) return { setRaw, contentItemId: exact, matched: 'key' };
  const oldest = aliasMembers(aliasRaw).sort()[0];
  if (!oldest) return { setRaw, contentItemId: undefined };
  return { setRaw, contentItemId: oldest.slice(oldest.indexOf('#') + 1), matched: 'alias' };
}
