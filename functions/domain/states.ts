/** Lifecycle states of the entities; the store's schema and the API's models both read them. */
export const PROJECT_STATES = ['active', 'archived'] as const;
export const CONTENT_STATES = ['active', 'inactive', 'archived'] as const;
/** `quarantined`: held back, not counted (a flood or spam); `discarded`: a held one an admin threw away (docs/api.md "Quarantine"). */
export const RESPONSE_STATES = ['active', 'revoked', 'quarantined', 'discarded'] as const;
export type ResponseState = (typeof RESPONSE_STATES)[number];
/** States of responses held back: never counted, never announced as responses. */
export const HELD_STATES: readonly ResponseState[] = ['quarantined', 'discarded'];
