/**
 * What a CSV export's cell holds for a text, as docs/api.md (Export) states it: a text a
 * spreadsheet would run as a formula is prefixed with `'`. Ids never begin with such a
 * character, so they are compared as they are.
 */
export const spreadsheetCell = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
