import { instant, INSTANT_RULE } from '../../functions/api/models';
import { argumentsComponent, openApiDocument } from '../../functions/api/openapi';
import { operationList } from '../../functions/api/registry';

/** One grammar for every date argument (issue 39 §4): `instant`, docs/api.md "Identifiers, dates, states". */
describe('instant', () => {
  it.each([
    ['2026-11-16', '2026-11-16T00:00:00.000Z'],
    ['2026-11-16T10:00:00Z', '2026-11-16T10:00:00.000Z'],
    ['2026-11-16T10:00:00.5+02:00', '2026-11-16T08:00:00.500Z'],
    ['2026-11-16T00:30:00-01:00', '2026-11-16T01:30:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['0000-01-01', '0000-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('reads %s as %s', (text, utc) => {
    expect(instant.parse(text)).toBe(utc);
  });

  it.each([
    '2026-11-16T10:00:00', // no offset: the server's time zone
    '2026-11-16T10:00Z', // no seconds
    '2026-11-16 10:00:00Z',
    '2026-11-16t10:00:00z',
    '2026-11-16T10:00:00+0200',
    '2026-02-30',
    '2026-13-01',
    '26-11-16',
    '+002026-11-16T00:00:00Z',
    'yesterday',
    '',
    1763251200000,
  ])('refuses %j with the grammar in the message', (text) => {
    const parsed = instant.safeParse(text);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe(INSTANT_RULE);
  });

  it('refuses an instant outside the years 0000 to 9999 in UTC', () => {
    for (const text of ['0000-01-01T00:00:00+01:00', '9999-12-31T23:00:00-05:00']) {
      expect(instant.safeParse(text).error?.issues[0].message).toBe('must be within the years 0000 to 9999 in UTC');
    }
  });
});

/**
 * The dates an operation's arguments hold outside Instant: every string of format date or
 * date-time reached from its arguments' component, through references.
 */
function datesOutsideInstant(schemas: Record<string, unknown>, schema: unknown, path: string, seen: Set<string>, found: string[]): string[] {
  if (Array.isArray(schema)) {
    for (const [index, entry] of schema.entries()) datesOutsideInstant(schemas, entry, `${path}/${index}`, seen, found);
  } else if (schema !== null && typeof schema === 'object') {
    const { format, $ref } = schema as { format?: unknown; $ref?: unknown };
    if (format === 'date' || format === 'date-time') found.push(path);
    if (typeof $ref === 'string') {
      const name = $ref.replace('#/components/schemas/', '');
      if (name !== 'Instant' && !seen.has(name)) {
        seen.add(name);
        datesOutsideInstant(schemas, schemas[name], name, seen, found);
      }
    }
    for (const [name, value] of Object.entries(schema)) datesOutsideInstant(schemas, value, `${path}/${name}`, seen, found);
  }
  return found;
}

it('every date argument of every operation in the registry is the one Instant', () => {
  const { components } = openApiDocument();
  const schemas = components.schemas as Record<string, unknown>;
  const outside = operationList.flatMap((operation) => {
    const name = argumentsComponent(operation);
    return datesOutsideInstant(schemas, schemas[name], name, new Set(), []);
  });
  expect(outside).toEqual([]);
  const withDates = operationList
    .filter((operation) => referencesInstant(schemas, argumentsComponent(operation), new Set()))
    .map((operation) => `${operation.resource}/${operation.name}`);
  expect(withDates).toEqual(
    expect.arrayContaining([
      'audit/list',
      'audit/export',
      'projects/digest',
      'responses/import',
      'responses/list',
      'responses/export',
      'projects/getStats',
      'sets/getStats',
      'contents/getStats',
    ]),
  );
});

function referencesInstant(schemas: Record<string, unknown>, name: string, seen: Set<string>): boolean {
  if (seen.has(name)) return false;
  seen.add(name);
  const text = JSON.stringify(schemas[name]);
  if (text.includes('"#/components/schemas/Instant"')) return true;
  return [...text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)].some((match) => referencesInstant(schemas, match[1], seen));
}
