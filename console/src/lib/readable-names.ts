import { readableName } from '../../../shared/names';

/**
 * Names stored before the rule of names people read (docs/api.md, "Identifiers, dates,
 * states") may hold bidirectional overrides, zero-width or control characters. The console
 * shows every name of every answer through `readableName`, which writes such characters
 * out as their code points; the stored names are not changed. The fields are the API's
 * name fields wherever they occur (a project's `name`, an item's `title`, a key's or an
 * audit actor's `label`, `accountName`, ...), so a new answer naming something is covered.
 */
const NAME_FIELDS = new Set(['name', 'accountName', 'projectName', 'title', 'label', 'description', 'icon']);

/** `value` with every string under a name field shown safely. */
export function withReadableNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withReadableNames);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([field, entry]) => [
      field,
      NAME_FIELDS.has(field) && typeof entry === 'string' ? readableName(entry) : withReadableNames(entry),
    ]),
  );
}

/** The console's fetch for the typed client: JSON answers come back with their names shown safely. */
export const readableNamesFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response;
  const body = withReadableNames(await response.json());
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers });
};
