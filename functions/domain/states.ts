/** Lifecycle states of the entities; the store's schema and the API's models both read them. */
export const PROJECT_STATES = ['active', 'archived'] as const;
export const CONTENT_STATES = ['active', 'inactive', 'archived'] as const;
export const RESPONSE_STATES = ['active', 'revoked'] as const;
