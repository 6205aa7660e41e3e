/** responses/get and responses/list: an account's responses as the API returns them. */
import { notFound } from '../api/errors';
import type { ResponseQueryModel } from '../api/response-models';
import type { ResponseItem, Store } from '../store/entities';

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

const LIST_QUERY_PAGE = 100;

/** The index query for the narrowest scope given, after checking that scope belongs to the account. */
async function scopedQuery(store: Store, accountId: string, query: ResponseQueryModel) {
  const { Response, ContentItem, ContentSet, Project } = store.entities;
  if (query.contentId) {
    const { data } = await ContentItem.get({ id: query.contentId }).go();
    if (!data || data.accountId !== accountId) throw notFound('Content item', query.contentId);
    const consistent = (!query.contentSetId || query.contentSetId === data.contentSetId) && (!query.projectId || query.projectId === data.projectId);
    return consistent ? Response.query.byContentItem({ contentItemId: data.id }) : null;
  }
  if (query.contentSetId) {
    const { data } = await ContentSet.get({ id: query.contentSetId }).go();
    if (!data || data.accountId !== accountId) throw notFound('Content set', query.contentSetId);
    return !query.projectId || query.projectId === data.projectId ? Response.query.byContentSet({ contentSetId: data.id }) : null;
  }
  const { data } = await Project.get({ id: query.projectId! }).go();
  if (!data || data.accountId !== accountId) throw notFound('Project', query.projectId);
  return Response.query.byProject({ projectId: data.id });
}

/**
 * Newest first, 1-based pages. Offset paging reads the skipped items too; the depth is
 * bounded by MAX_LIST_DEPTH and from/to narrow the key range on the index itself.
 */
export async function listResponses(store: Store, accountId: string, query: ResponseQueryModel) {
  const index = await scopedQuery(store, accountId, query);
  const skip = (query.$page - 1) * query.$size;
  const needed = skip + query.$size + 1;
  const matched: ResponseItem[] = [];
  if (index) {
    const ranged =
      query.from && query.to
        ? index.between({ createdAt: query.from }, { createdAt: query.to })
        : query.from
          ? index.gte({ createdAt: query.from })
          : query.to
            ? index.lt({ createdAt: query.to })
            : index;
    const filtered = query.state === 'all' ? ranged : ranged.where((attributes, { eq }) => eq(attributes.state, query.state));
    let cursor: string | null = null;
    do {
      const page: { data: ResponseItem[]; cursor: string | null } = await filtered.go({ order: 'desc', cursor, limit: LIST_QUERY_PAGE });
      matched.push(...page.data);
      cursor = page.cursor;
    } while (cursor && matched.length < needed);
  }
  return {
    items: matched.slice(skip, skip + query.$size).map(responseView),
    page: query.$page,
    size: query.$size,
    hasMore: matched.length > skip + query.$size,
  };
}
