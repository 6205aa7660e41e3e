/** Requests larger than this are refused before they are parsed (`payload-too-large`). */
export const MAX_BODY_BYTES = 64 * 1024;

/** responses/import's limit: 1,000 rows of a few KB each, under Lambda's 6 MB request payload. */
export const IMPORT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** An operation's body limit: its own when it declares one, else MAX_BODY_BYTES. */
export function bodyLimit(operation: { maxBodyBytes?: number }): number {
  return operation.maxBodyBytes ?? MAX_BODY_BYTES;
}
