/** responses/get and responses/list: an account's responses as the API returns them. */
import { notFound } from '../api/errors';
import type { ResponseQueryModel } from '../api/response-models';
import { createConversions } from 'electrodb';
import { budgetedRead, FILTERED_READ_BUDGET } from '../store/batch';
import { Response as ResponseEntity, type ResponseItem, type Store } from '../store/entities';
import { cursorPage, openPosition, type CursorScope, type IndexSource } from './paging';

export function responseView(response: ResponseItem) {
  return {
    id: response.id,
    accountId: response.accountId,
    projectId: response.projectId,
    contentSetId: response.contentSetId,
    contentItemId: response.contentItemId,
    createdAt: response.createdAt,
    updatedAt: response.updatedAt,
    state: response.state,
    value: response.value,
    ...(response.context ? { context: response.context } : {}),
    ...(response.profiling ? { profiling: response.profiling } : {}),
  };
}

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
  state: 'active' | 'revoked' | 'all';
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
): Promise<{ accessPattern: ResponseAccessPattern; partition: string } | null> {
  const { ContentItem, ContentSet, Project } = store.entities;
  if (selection.userId !== undefined) return { accessPattern: 'byUser', partition: `${accountId}#${selection.userId}` };
  if (selection.contentId) {
    const { data } = await ContentItem.get({ id: selection.contentId }).go();
    if (!data || data.accountId !== accountId) throw notFound('Content item', selection.contentId);
    const consistent =
      (!selection.contentSetId || selection.contentSetId === data.contentSetId) && (!selection.projectId || selection.projectId === data.projectId);
    return consistent ? { accessPattern: 'byContentItem', partition: data.id } : null;
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

/** The index query, newest first, narrowed to [from, to) on the index key and filtered by state. */
function indexQuery(store: Store, accessPattern: ResponseAccessPattern, partition: string, selection: ResponseSelection): ResponseQuery {
  const { Response } = store.entities;
  // Sort keys are `<createdAt>#<id>`: from (inclusive) and to (exclusive) bound them as plain prefixes.
  const bound = (value: string) => (accessPattern === 'byUser' ? { userSort: value } : { createdAt: value });
  const index =
    accessPattern === 'byUser'
      ? Response.query.byUser({ userKey: partition })
      : accessPattern === 'byContentItem'
        ? Response.query.byContentItem({ contentItemId: partition })
        : accessPattern === 'byContentSet'
          ? Response.query.byContentSet({ contentSetId: partition })
          : Response.query.byProject({ projectId: partition });
  const ranges = index as unknown as {
    between(from: object, to: object): typeof index;
    gte(from: object): typeof index;
    lt(to: object): typeof index;
  };
  const ranged =
    selection.from && selection.to
      ? ranges.between(bound(selection.from), bound(selection.to))
      : selection.from
        ? ranges.gte(bound(selection.from))
        : selection.to
          ? ranges.lt(bound(selection.to))
          : index;
  const filtered = selection.state === 'all' ? ranged : ranged.where((attributes, { eq }) => eq(attributes.state, selection.state));
  return filtered as unknown as ResponseQuery;
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
  const list: CursorScope = {
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
  if (!index) return { source: null, list };
  const converter = conversions.byAccessPattern[index.accessPattern].fromComposite;
  return {
    list,
    source: {
      read: async (start, count) => {
        const query = indexQuery(store, index.accessPattern, index.partition, selection);
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
