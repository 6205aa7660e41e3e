/** responses/get and responses/list: an account's responses as the API returns them. */
import { notFound } from '../api/errors';
import type { ResponseQueryModel } from '../api/response-models';
import { createConversions } from 'electrodb';
import { budgetedRead, FILTERED_READ_BUDGET } from '../store/batch';
import { Response as ResponseEntity, type ResponseItem, type Store } from '../store/entities';
import { type RawItem, type ResponseListIndex, responseOf } from '../store/items';
import { cursorPage, openPosition, type CursorScope, type IndexSource } from './paging';
import { mergedListRead } from './response-lists';
import { listThemeMessages, type ThemeListScope } from './theme-messages';
import { responseView } from '../domain/response-view';
import type { ResponseState } from '../domain/states';

export async function getResponse(store: Store, accountId: string, responseId: string) {
  const { data } = await store.entities.Response.get({ id: responseId }).go({ consistent: true });
  if (!data || data.accountId !== accountId) throw notFound('Response', responseId);
  return responseView(data);
}

/** What a list or an export selects (response-models.ts: one scope, state, bounds). */
export interface ResponseSelection {
  projectId?: string;
  contentSetId?: string;
  contentId?: string;
  userId?: string;
  state: ResponseState | 'all';
  from?: string;
  to?: string;
}

type ResponseAccessPattern = 'byContentItem' | 'byContentSet' | 'byProject' | 'byUser';

const conversions = createConversions(ResponseEntity);

/** Reads smaller than this still fetch this many items per request: filters (state) drop some. */
const MIN_READ = 100;

/**
 * The index a selection reads, after checking that its scope belongs to the account:
 * the narrowest of item, set and project given (null when those given do not overlap),
 * or the person's index for a userId.
 */
async function selectedIndex(
  store: Store,
  accountId: string,
  selection: ResponseSelection,
): Promise<{ accessPattern: ResponseAccessPattern; partition: string; contentSetId?: string } | null> {
  const { ContentItem, ContentSet, Project } = store.entities;
  if (selection.userId !== undefined) return { accessPattern: 'byUser', partition: `${accountId}#${selection.userId}` };
  if (selection.contentId) {
    const { data } = await ContentItem.get({ id: selection.contentId }).go();
    if (!data || data.accountId !== accountId) throw notFound('Content item', selection.contentId);
    const consistent =
      (!selection.contentSetId || selection.contentSetId === data.contentSetId) && (!selection.projectId || selection.projectId === data.projectId);
    return consistent ? { accessPattern: 'byContentItem', partition: data.id, contentSetId: data.contentSetId } : null;
  }
  if (selection.contentSetId) {
    const { data } = await ContentSet.get({ id: selection.contentSetId }).go();
    if (!data || data.accountId !== accountId) throw notFound('Content set', selection.contentSetId);
    return !selection.projectId || selection.projectId === data.projectId ? { accessPattern: 'byContentSet', partition: data.id } : null;
  }
  const { data } = await Project.get({ id: selection.projectId! }).go();
  if (!data || data.accountId !== accountId) throw notFound('Project', selection.projectId);
  return { accessPattern: 'byProject', partition: data.id };
}

interface ResponseQuery {
  go(options: { order: 'desc'; cursor: string | null; limit: number; pages: 1 }): Promise<{ data: ResponseItem[]; cursor: string | null }>;
}

/** A person's responses (gsi4, unsharded: one person's rate is no hot spot), newest first, within [from, to), by state. */
function userQuery(store: Store, userKey: string, selection: ResponseSelection): ResponseQuery {
  const index = store.entities.Response.query.byUser({ userKey });
  // Sort keys are `<createdAt>#<id>`: from (inclusive) and to (exclusive) bound them as plain prefixes.
  const bound = (value: string) => ({ userSort: value });
  const ranged =
    selection.from && selection.to
      ? index.between(bound(selection.from), bound(selection.to))
      : selection.from
        ? index.gte(bound(selection.from))
        : selection.to
          ? index.lt(bound(selection.to))
          : index;
  const filtered = selection.state === 'all' ? ranged : ranged.where((attributes, { eq }) => eq(attributes.state, selection.state));
  return filtered as unknown as ResponseQuery;
}

const LIST_INDEXES: Record<Exclude<ResponseAccessPattern, 'byUser'>, ResponseListIndex> = { byContentItem: 'gsi1', byContentSet: 'gsi2', byProject: 'gsi3' };

/** A response as lists return it: without its token hash. */
function listed(raw: RawItem): ResponseItem {
  const { revokeTokenHash: _hash, ...response } = responseOf(raw)!;
  return response;
}

/**
 * The sort key a position of a merged list stands for. Cursors sealed before the lists
 * were sharded hold an ElectroDB cursor (its last key, base64url JSON): the sort key in it.
 */
function sortKeyOfPosition(position: string, index: ResponseListIndex): string {
  if (/^\d/.test(position)) return position;
  const keys = JSON.parse(Buffer.from(position, 'base64url').toString('utf8')) as Record<string, unknown>;
  return String(keys[`${index}sk`]);
}

/** What a cursor of a list is bound to: the operation, the index and scope read, the filters. */
function listScope(
  accountId: string,
  operation: string,
  index: { accessPattern: ResponseAccessPattern; partition: string } | null,
  selection: ResponseSelection,
  extra: Record<string, unknown>,
): CursorScope {
  return {
    accountId,
    path: 'args.0.cursor',
    scope: {
      operation,
      ...extra,
      index: index?.accessPattern ?? 'none',
      partition: index?.partition,
      state: selection.state,
      from: selection.from,
      to: selection.to,
    },
  };
}

/** The scope of a list by theme or phrase: the themes job keeps messages per set. */
function themeListScope(index: { accessPattern: ResponseAccessPattern; partition: string; contentSetId?: string }): ThemeListScope {
  switch (index.accessPattern) {
    case 'byContentItem':
      return { kind: 'item', contentItemId: index.partition, contentSetId: index.contentSetId! };
    case 'byContentSet':
      return { kind: 'set', contentSetId: index.partition };
    case 'byProject':
      return { kind: 'project', projectId: index.partition };
    case 'byUser':
      // The query model refuses a person's list by theme or phrase.
      throw new Error('a list by theme or phrase has no person scope');
  }
}

export interface ResponseListing {
  /** Null when the scopes given do not overlap: nothing to list. */
  source: IndexSource<ResponseItem> | null;
  /** What a cursor of this listing is bound to. */
  list: CursorScope;
}

/**
 * The responses a selection names, as a source for the paging helpers, and the scope its
 * cursors are sealed for (`operation` and `extra` keep cursors of different lists apart).
 */
export async function responseListing(
  store: Store,
  accountId: string,
  selection: ResponseSelection,
  operation: string,
  extra: Record<string, unknown> = {},
  /** Items one read may examine (FILTERED_READ_BUDGET); tests lower it. */
  readBudget = FILTERED_READ_BUDGET,
): Promise<ResponseListing> {
  const index = await selectedIndex(store, accountId, selection);
  const list = listScope(accountId, operation, index, selection, extra);
  if (!index) return { source: null, list };
  if (index.accessPattern !== 'byUser') {
    const listIndex = LIST_INDEXES[index.accessPattern];
    const read = mergedListRead(
      store,
      { index: listIndex, scopeId: index.partition, from: selection.from, to: selection.to, state: selection.state === 'all' ? undefined : selection.state },
      readBudget,
    );
    return {
      list,
      source: {
        read: async (start, count) => {
          const { items, resume } = await read(start === null ? null : sortKeyOfPosition(start, listIndex), count);
          return { items: items.map(listed), ...(resume === undefined ? {} : { resume }) };
        },
        positionOf: (item) => `${item.createdAt}#${item.id}`,
      },
    };
  }
  const converter = conversions.byAccessPattern.byUser.fromComposite;
  return {
    list,
    source: {
      read: async (start, count) => {
        const query = userQuery(store, index.partition, selection);
        const { items, resume } = await budgetedRead<ResponseItem, string>(
          count,
          MIN_READ,
          async (limit, cursor) => {
            const page = await query.go({ order: 'desc', cursor: cursor ?? null, limit, pages: 1 });
            return { items: page.data, next: page.cursor ?? undefined };
          },
          start ?? undefined,
          readBudget,
        );
        return resume === undefined ? { items } : { items, resume };
      },
      positionOf: (item) => converter.toCursor(item as never),
    },
  };
}

/**
 * Newest first, a page of `$size`: after `cursor`, or the 1-based `$page` (offset paging
 * reads the skipped items too, so `$page * $size` is bounded by MAX_LIST_DEPTH). Both
 * return a cursor while more responses exist.
 */
export async function listResponses(store: Store, accountId: string, query: ResponseQueryModel, readBudget = FILTERED_READ_BUDGET) {
  if (query.theme !== undefined || query.phrase !== undefined) {
    const index = await selectedIndex(store, accountId, query);
    const list = listScope(accountId, 'responses/list', index, query, { theme: query.theme, phrase: query.phrase, tag: query.tag });
    return listThemeMessages(store, accountId, query, index && themeListScope(index), list);
  }
  const { source, list } = await responseListing(store, accountId, query, 'responses/list', {}, readBudget);
  const page = source
    ? await cursorPage(source, list, { cursor: query.cursor, size: query.$size, skip: ((query.$page ?? 1) - 1) * query.$size })
    : await openPosition(list, query.cursor).then(() => ({ items: [], cursor: undefined }));
  return {
    items: page.items.map(responseView),
    ...(query.cursor === undefined ? { page: query.$page ?? 1 } : {}),
    size: query.$size,
    hasMore: page.cursor !== undefined,
    ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
  };
}
