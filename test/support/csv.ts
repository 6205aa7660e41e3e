/**
 * What a CSV export's cell holds for a text, as docs/api.md (Export) states it: a text a
 * spreadsheet would run as a formula is prefixed with `'`. Ids are random, so any of them
 * may begin with `-`; tests comparing exported ids expect them through this.
 */
export const spreadsheetCell = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
