/**
 * `responses/list` by theme or phrase (issue 40 §1; docs/api.md, "Themes"): the active
 * messages of a theme (or of `other`) or holding a phrase, in a project, set or item, newest
 * first, from the themes job's copy of each set's messages (store/themes.ts `thememsg#<set>`,
 * each with its theme and phrase keys), so that with a themes answer's `from` and `to` it
 * lists exactly the messages the answer counted. The first page also counts them all.
 */
import { badRequest } from '../api/errors';
import { OTHER_THEME, type ResponseQueryModel } from '../api/response-models';
import { responseView } from '../domain/response-view';
import { phraseKey } from '../domain/themes';
import { FILTERED_READ_BUDGET, getRawItemsChunked } from '../store/batch';
import type { ResponseItem, Store } from '../store/entities';
import { keys, responseOf } from '../store/items';
import { countMessages, type MessageFilter, readMessagePage, type StoredMessage, themeSets } from '../store/themes';
import { cursorPage, type CursorScope, openPosition } from './paging';
import { mergedPartitionsRead, type PartitionReader } from './response-lists';

/** The scope a list reads, resolved and checked by responses/list (null: scopes that do not overlap). */
export type ThemeListScope =
  | { kind: 'item'; contentItemId: string; contentSetId: string }
  | { kind: 'set'; contentSetId: string }
  | { kind: 'project'; projectId: string };

const sortKeyOf = (message: StoredMessage) => `${message.createdAt}#${message.responseId}`;

/** What the query selects of each set's messages. */
function messageFilter(query: ResponseQueryModel, scope: ThemeListScope): MessageFilter {
  const filter: MessageFilter = {
    ...(query.from === undefined ? {} : { from: query.from }),
    ...(query.to === undefined ? {} : { to: query.to }),
    ...(query.tag === undefined ? {} : { tag: query.tag }),
    ...(scope.kind === 'item' ? { contentItemId: scope.contentItemId } : {}),
  };
  if (query.theme !== undefined) return { ...filter, theme: query.theme === OTHER_THEME ? null : query.theme };
  // The key messages' phrases are stored by (phrases.ts): a phrase of stop words alone has none.
  const key = phraseKey(query.phrase!);
  if (!key) throw badRequest('The phrase has no words a phrase is made of', [{ path: 'args.0.phrase', message: 'give 1-3 words that are not all stop words' }]);
  return { ...filter, phrase: key };
}

async function setsOf(store: Store, accountId: string, scope: ThemeListScope): Promise<string[]> {
  if (scope.kind !== 'project') return [scope.contentSetId];
  return (await themeSets(store, scope.projectId)).filter((set) => set.accountId === accountId).map((set) => set.contentSetId);
}

/** The page's messages as responses: still active (the job's copy follows within a run). */
async function responsesOf(store: Store, messages: StoredMessage[]): Promise<ResponseItem[]> {
  const raw = await getRawItemsChunked(
    store,
    messages.map((message) => keys.response(message.responseId)),
  );
  const byId = new Map<string, ResponseItem>();
  for (const item of raw) {
    const response = item && responseOf(item);
    if (response && response.state === 'active') {
      const { revokeTokenHash: _hash, ...listed } = response;
      byId.set(response.id, listed);
    }
  }
  return messages.flatMap((message) => byId.get(message.responseId) ?? []);
}

export async function listThemeMessages(store: Store, accountId: string, query: ResponseQueryModel, scope: ThemeListScope | null, list: CursorScope) {
  if (!scope) {
    await openPosition(list, query.cursor);
    return { items: [], ...(query.cursor === undefined ? { page: query.$page ?? 1, count: 0 } : {}), size: query.$size, hasMore: false };
  }
  const filter = messageFilter(query, scope);
  const sets = await setsOf(store, accountId, scope);
  const readers = sets.map(
    (setId): PartitionReader<StoredMessage> =>
      (below, limit) =>
        readMessagePage(store, setId, filter, below, limit),
  );
  const page = await cursorPage({ read: mergedPartitionsRead(readers, sortKeyOf, FILTERED_READ_BUDGET), positionOf: sortKeyOf }, list, {
    cursor: query.cursor,
    size: query.$size,
    skip: ((query.$page ?? 1) - 1) * query.$size,
  });
  const count =
    query.cursor === undefined ? (await Promise.all(sets.map((setId) => countMessages(store, setId, filter)))).reduce((sum, n) => sum + n, 0) : undefined;
  return {
    items: (await responsesOf(store, page.items)).map(responseView),
    ...(query.cursor === undefined ? { page: query.$page ?? 1 } : {}),
    size: query.$size,
    hasMore: page.cursor !== undefined,
    ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
    ...(count === undefined ? {} : { count }),
  };
}
