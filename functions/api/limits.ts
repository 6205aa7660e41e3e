/** Requests larger than this are refused before they are parsed (`payload-too-large`). */
export const MAX_BODY_BYTES = 64 * 1024;
