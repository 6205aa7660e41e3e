import type { ResponseImage } from './events';

type ShownAlways = 'id' | 'accountId' | 'projectId' | 'contentSetId' | 'contentItemId' | 'createdAt' | 'updatedAt' | 'state' | 'value';
type ShownWhenSet = 'context' | 'profiling' | 'quarantine';

/** The attributes of a stored response that its view shows. */
export type ViewedResponse = Pick<ResponseImage, ShownAlways | ShownWhenSet>;

/** The view of a response of type R: R's own types, so the store's items keep theirs. */
export type ResponseView<R extends ViewedResponse> = Pick<R, ShownAlways> & Partial<Pick<R, ShownWhenSet>>;

/**
 * A response as the API answers it (responses/get, list, export) and webhooks post it: the
 * same fields for both, never its contribution or revoke token.
 */
export function responseView<R extends ViewedResponse>(response: R): ResponseView<R> {
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
    ...(response.quarantine ? { quarantine: response.quarantine } : {}),
  };
}
