import fc from 'fast-check';
import { ERROR_STATUS } from '../../functions/api/errors';
import { argumentsComponent, openApiDocument, type JsonSchema } from '../../functions/api/openapi';
import { operationPath, type OperationDeclaration } from '../../functions/api/operation';
import { resultMismatch } from './result-check';

/**
 * The fuzzers' parts (test/integration/fuzz.test.ts): argument arrays for any operation of
 * the registry, made from its arguments' JSON Schema in the OpenAPI document (so an
 * operation declared later is fuzzed without an edit here), mutations of valid ones, and
 * the oracle every answer must pass.
 *
 * Why a converter of our own from JSON Schema to fast-check: the maintained generators
 * from zod (zod-fast-check) target zod 3, and JSON Schema fakers make one valid value, not
 * arbitraries fast-check can combine, replay by seed and shrink. The converter reads only
 * the keywords our OpenAPI document emits (test/unit/fuzz.test.ts checks that the valid
 * values it makes pass each operation's own zod arguments).
 */

/** Real ids and secrets of the fixture account, by the argument or field names that take them. */
export type IdPool = Record<string, string[]>;

/** The arguments schema of every operation, and the components it refers to. */
const document = openApiDocument();
const components = document.components.schemas as Record<string, JsonSchema>;

export function argumentsSchema(operation: OperationDeclaration): JsonSchema {
  return components[argumentsComponent(operation)];
}

/** The names of an operation's positional arguments, from its signature (`id: string, filter?: StatsFilter` -> id, filter). */
export function positionalNames(operation: Pick<OperationDeclaration, 'signature'>): (string | undefined)[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of operation.signature) {
    if ('{[(<'.includes(character)) depth++;
    if ('}])>'.includes(character)) depth--;
    if (character === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += character;
  }
  parts.push(current);
  return parts.map((part) => /^\s*(\w+)\??\s*:/.exec(part)?.[1]);
}

/** Strings that have broken parsers before: empty, blank, long, control and format characters, surrogates, prototypes, markup. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\uD800',
  '\uDFFF\uD800',
  'Acme\u202Eevil',
  '\u200B',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://127.0.0.1")',
  '../../etc/passwd',
  '%00',
  '${x}',
  "' OR 1=1 --",
  'null',
  '-1',
  '1e400',
  'x'.repeat(5000),
  '\u{1F600}'.repeat(300),
  '2026-02-30',
  '9999-12-31T23:59:59.999-23:59',
];

const NASTY_NUMBERS = [0, -0, -1, 1, 0.5, 1e-131, 1e-130, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 1e21, 36_601, 10_001];

/** Any JSON value, nasty ones weighted in. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS, ...NASTY_NUMBERS, null, true, false, [], {}, [[[[[[]]]]]], { __proto__: null }) },
  // Deeper than the 64 levels the adapter takes.
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 70 }).map((depth) => Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 1)) },
);

interface Generation {
  /** Stay within the schema (valid values, as far as a schema says) or stray from it at times. */
  valid: boolean;
  ids: IdPool;
}

const MAX_STRING = 40;

function stringArbitrary(schema: JsonSchema, name: string | undefined, generation: Generation): fc.Arbitrary<unknown> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.max(minLength, Math.min((schema.maxLength as number | undefined) ?? MAX_STRING, MAX_STRING));
  const known = name === undefined ? undefined : generation.ids[name];
  let text: fc.Arbitrary<string>;
  if (schema.format === 'date-time')
    text = fc.date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((date) => date.toISOString());
  else if (schema.format === 'date')
    text = fc.date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
  else text = matching(schema.pattern) ?? fc.string({ minLength, maxLength, unit: 'grapheme' });
  if (typeof schema.pattern === 'string') {
    const longest = (schema.maxLength as number | undefined) ?? Infinity;
    text = text.filter((candidate) => candidate.length >= minLength && candidate.length <= longest);
  }
  if (known !== undefined && known.length > 0) {
    text = generation.valid ? fc.constantFrom(...known) : fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: text });
  }
  if (generation.valid) return text;
  return fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS) });
}

/** Strings of a pattern, where fast-check can make them (it knows no lookahead, which the email pattern has). */
function matching(pattern: unknown): fc.Arbitrary<string> | undefined {
  if (typeof pattern !== 'string') return undefined;
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return undefined;
  }
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveLow = schema.exclusiveMinimum as number | undefined;
  const exclusiveHigh = schema.exclusiveMaximum as number | undefined;
  const low = (schema.minimum as number | undefined) ?? (exclusiveLow !== undefined ? exclusiveLow + 1e-9 : -1000);
  const high = (schema.maximum as number | undefined) ?? (exclusiveHigh !== undefined ? exclusiveHigh - 1e-9 : Math.max(low + 1000, 1000));
  const whole = () => fc.integer({ min: Math.ceil(Math.max(low, -(2 ** 31))), max: Math.floor(Math.min(high, 2 ** 31)) });
  if (integer) return whole();
  const fraction = fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
  // A range without a whole number in it (0 < x <= 0.2) has fractions only.
  return Math.ceil(low) <= Math.floor(high) ? fc.oneof(whole(), fraction) : fraction;
}

/**
 * Values of a JSON Schema. `name` is the field's or argument's name: ids, tokens and keys of
 * the fixture are picked by it. Not valid: at times a nasty value instead, and objects that
 * leave out required fields or carry unknown ones.
 */
export function arbitraryOf(schema: JsonSchema | boolean | undefined, generation: Generation, name?: string, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true) return anyJson;
  if (schema === false) return fc.constant(undefined);
  if (depth > 8) return fc.constant(null);
  const stray = (arbitrary: fc.Arbitrary<unknown>) => (generation.valid ? arbitrary : fc.oneof({ weight: 9, arbitrary }, { weight: 1, arbitrary: anyJson }));
  if (typeof schema.$ref === 'string') return arbitraryOf(components[schema.$ref.replace('#/components/schemas/', '')], generation, name, depth + 1);
  if ('const' in schema) return stray(fc.constant(schema.const));
  if (Array.isArray(schema.enum)) return stray(fc.constantFrom(...(schema.enum as unknown[])));
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices) {
    const requiredBy = (choice: JsonSchema) => (choice.required as string[] | undefined) ?? [];
    return fc.oneof(
      ...choices.map((choice) => {
        // A branch's required fields join the object's; under oneOf, those only other branches require stay out.
        const required = [...requiredBy(schema), ...requiredBy(choice)];
        const absent = schema.oneOf ? choices.flatMap((other) => (other === choice ? [] : requiredBy(other))).filter((field) => !required.includes(field)) : [];
        return arbitraryOf({ ...schema, anyOf: undefined, oneOf: undefined, ...choice, required, absent }, generation, name, depth + 1);
      }),
    );
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as JsonSchema[]).filter((part) => typeof part === 'object');
    // `not: { required: [a, b] }`: fields that must not come together (a person's list and a project's).
    const apart = parts.flatMap((part) => ((part.not as JsonSchema | undefined)?.required ? [(part.not as JsonSchema).required as string[]] : []));
    const merged = Object.assign({}, ...parts.filter((part) => part.not === undefined), { ...schema, allOf: undefined, apart });
    return arbitraryOf(merged, generation, name, depth + 1);
  }
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((one) => arbitraryOf({ ...schema, type: one }, generation, name, depth + 1)));
  switch (type) {
    case 'null':
      return stray(fc.constant(null));
    case 'boolean':
      return stray(fc.boolean());
    case 'integer':
      return stray(numberArbitrary(schema, true));
    case 'number':
      return stray(numberArbitrary(schema, false));
    case 'string':
      return stringArbitrary(schema, name, generation);
    case 'array':
      return stray(arrayArbitrary(schema, generation, name, depth));
    case 'object':
      return stray(objectArbitrary(schema, generation, depth));
    default:
      return anyJson;
  }
}

function arrayArbitrary(
  schema: JsonSchema,
  generation: Generation,
  name: string | undefined,
  depth: number,
  names: (string | undefined)[] = [],
): fc.Arbitrary<unknown[]> {
  const minItems = (schema.minItems as number | undefined) ?? 0;
  const prefix = (schema.prefixItems as JsonSchema[] | undefined) ?? [];
  if (prefix.length > 0) {
    const maxItems = Math.min((schema.maxItems as number | undefined) ?? prefix.length, prefix.length);
    return fc
      .tuple(...prefix.map((item, index) => arbitraryOf(item, generation, names[index], depth + 1)), fc.integer({ min: minItems, max: maxItems }))
      .map((parts) => parts.slice(0, parts.at(-1) as number));
  }
  const items = schema.items as JsonSchema | undefined;
  const maxLength = Math.max(minItems, Math.min((schema.maxItems as number | undefined) ?? 3, 3));
  // A list of ids (responseIds) takes the ids of its singular name.
  return fc.array(arbitraryOf(items, generation, name?.replace(/s$/, ''), depth + 1), { minLength: minItems, maxLength });
}

function objectArbitrary(schema: JsonSchema, generation: Generation, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  // Valid values carry the required fields, and those of any value (a response's `value`, which zod requires).
  const sent = generation.valid ? Object.keys(properties).filter((field) => required.has(field) || Object.keys(properties[field]).length === 0) : [];
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([field, property]) => [field, arbitraryOf(property, generation, field, depth + 1)])),
    { requiredKeys: sent },
  );
  const additional = schema.additionalProperties;
  const extra =
    typeof additional === 'object' && additional !== null
      ? fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), arbitraryOf(additional as JsonSchema, generation, undefined, depth + 1), { maxKeys: 3 })
      : generation.valid
        ? fc.constant({})
        : fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 2 }) });
  const apart = generation.valid ? ((schema.apart as string[][] | undefined) ?? []) : [];
  const absent = generation.valid ? ((schema.absent as string[] | undefined) ?? []) : [];
  return fc.tuple(known, extra).map(([fields, more]) => {
    const value: Record<string, unknown> = { ...more, ...fields };
    if (!generation.valid) return value;
    for (const together of apart) if (together.every((field) => field in value)) delete value[together.at(-1)!];
    for (const field of absent) delete value[field];
    // A time range runs forward (checkTimeRange).
    if (typeof value.from === 'string' && typeof value.to === 'string' && value.from >= value.to) delete value.to;
    return value;
  });
}

/** Argument arrays of an operation: valid ones as far as its schema says, or ones straying from it. */
export function argumentsArbitrary(operation: OperationDeclaration, ids: IdPool, valid: boolean): fc.Arbitrary<unknown[]> {
  const schema = argumentsSchema(operation);
  const generation = { valid, ids: idsOf(operation, ids) };
  const names = positionalNames(operation);
  const variants = ((schema.anyOf as JsonSchema[] | undefined) ?? [schema]).map((variant) =>
    arrayArbitrary(
      { ...variant, ...(typeof variant.$ref === 'string' ? components[variant.$ref.replace('#/components/schemas/', '')] : {}) },
      generation,
      undefined,
      0,
      names,
    ),
  );
  return fc.oneof(...variants);
}

/** `id`, `target` and `token` take the ids of the operation's own resource. */
function idsOf(operation: OperationDeclaration, ids: IdPool): IdPool {
  const own = ids[`${operation.resource}:id`] ?? [];
  return { ...ids, id: own, target: own };
}

/**
 * Valid arguments (they pass the operation's own zod arguments) when the schema's values can be; else the first one made.
 * Of 16 candidates: rules that depend on values (responses/list's tag only with a theme or phrase, its depth of pages) are
 * beyond JSON Schema, and a list's filter meets a few of them at once.
 */
export function validArguments(operation: OperationDeclaration, ids: IdPool): fc.Arbitrary<unknown[]> {
  return fc
    .array(argumentsArbitrary(operation, ids, true), { minLength: 16, maxLength: 16 })
    .map((candidates) => candidates.find((candidate) => operation.args.safeParse(candidate).success) ?? candidates[0]);
}

type Path = (string | number)[];

/** Every place in a JSON value: the value itself, each element, each field. */
function pathsOf(value: unknown, path: Path = [], found: Path[] = []): Path[] {
  found.push(path);
  if (Array.isArray(value)) {
    for (const [index, entry] of value.entries()) pathsOf(entry, [...path, index], found);
  } else if (value !== null && typeof value === 'object') for (const [field, entry] of Object.entries(value)) pathsOf(entry, [...path, field], found);
  return found;
}

function changed(value: unknown, path: Path, change: (current: unknown, parent: unknown, key: string | number | undefined) => unknown): unknown {
  if (path.length === 0) return change(value, undefined, undefined);
  const [head, ...rest] = path;
  const copy = Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
  const child = (copy as Record<string | number, unknown>)[head];
  if (rest.length === 0) {
    const next = change(child, copy, head);
    if (next === REMOVE) {
      if (Array.isArray(copy)) copy.splice(head as number, 1);
      else delete (copy as Record<string, unknown>)[head];
    } else (copy as Record<string | number, unknown>)[head] = next;
    return copy;
  }
  (copy as Record<string | number, unknown>)[head] = changed(child, rest, change);
  return copy;
}

const REMOVE = Symbol('remove');

/** One mutation of a JSON value at one of its places: replaced, removed, retyped, grown, doubled or joined by an unknown field. */
const mutation: fc.Arbitrary<(value: unknown) => unknown> = fc
  .tuple(
    fc.nat(),
    fc.constantFrom('replace', 'remove', 'retype', 'grow', 'unknown-field', 'wrap', 'duplicate'),
    anyJson,
    fc.string({ minLength: 1, maxLength: 12 }),
  )
  .map(([at, kind, replacement, field]) => (value: unknown) => {
    const paths = pathsOf(value);
    const path = paths[at % paths.length];
    return changed(value, path, (current) => {
      switch (kind) {
        case 'replace':
          return replacement;
        case 'remove':
          return path.length === 0 ? undefined : REMOVE;
        case 'retype':
          return typeof current === 'string'
            ? Number.isNaN(Number(current))
              ? current.length
              : Number(current)
            : typeof current === 'number'
              ? String(current)
              : JSON.stringify(current ?? null);
        case 'grow':
          return typeof current === 'string'
            ? current.repeat(200).slice(0, 20_000) || 'x'.repeat(20_000)
            : Array.isArray(current)
              ? Array.from({ length: 1100 }, () => current[0] ?? 0)
              : current;
        case 'unknown-field':
          return current !== null && typeof current === 'object' && !Array.isArray(current) ? { ...current, [field]: replacement } : current;
        case 'wrap':
          return [current];
        default:
          return Array.isArray(current) ? [...current, ...current] : current;
      }
    });
  });

/** A valid argument array with one to three mutations. */
export function mutatedArguments(operation: OperationDeclaration, ids: IdPool): fc.Arbitrary<unknown> {
  return fc
    .tuple(validArguments(operation, ids), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([valid, changes]) => changes.reduce((value, change) => change(value), valid as unknown));
}

export type Caller = 'anonymous' | 'viewer' | 'admin';
export const CALLERS: Caller[] = ['anonymous', 'viewer', 'admin'];

/** How a fuzzed call travels: a JSON body, `$p` of a GET (read-only operations), or a body that is no JSON array at all. */
export type Transport = { method: 'POST'; body: string } | { method: 'GET'; query: string };

export function transportsOf(operation: OperationDeclaration, args: unknown): fc.Arbitrary<Transport> {
  const json = JSON.stringify(args) ?? '';
  const post = fc.constant<Transport>({ method: 'POST', body: json });
  return operation.readOnly ? fc.oneof(post, fc.constant<Transport>({ method: 'GET', query: json })) : post;
}

/** Bodies that are not an argument array: bad JSON, other JSON, nothing. */
export const oddBodies: fc.Arbitrary<Transport> = fc.oneof(
  fc
    .constantFrom('', '[', '{"a":', 'null', '"text"', '{}', '[1,2', '\u0000', '[]]', `${'['.repeat(5000)}${']'.repeat(5000)}`)
    .map((body): Transport => ({ method: 'POST', body })),
  fc.string({ maxLength: 50 }).map((body): Transport => ({ method: 'POST', body })),
  anyJson.map((value): Transport => ({ method: 'POST', body: JSON.stringify(value) ?? '' })),
);

/**
 * What every answer must be: never a 5xx; a failure is an ApiError body (`error` of the
 * documented codes with its own status, a `message`, and an object `data` when present,
 * nothing else); a success agrees with the operation's result model. Answers the problem.
 */
export function answerProblem(operation: OperationDeclaration, status: number, text: string, contentType: string | null): string | undefined {
  const path = operationPath(operation);
  if (status >= 500) return `${path} answered ${status}: ${text.slice(0, 500)}`;
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    return `${path} answered ${status} with a body that is no JSON: ${text.slice(0, 200)}`;
  }
  if (status < 400) return resultMismatch(operation, status, body);
  if (!contentType?.includes('application/json')) return `${path} answered ${status} as ${contentType}`;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return `${path} answered ${status} with no ApiError object: ${text.slice(0, 200)}`;
  const { error, message, data, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `${path} answered ${status} with fields beyond error, message, data: ${Object.keys(rest).join(', ')}`;
  if (typeof error !== 'string' || ERROR_STATUS[error as keyof typeof ERROR_STATUS] !== status)
    return `${path} answered ${status} with the error code ${String(error)}`;
  if (typeof message !== 'string' || message.length === 0) return `${path} answered ${status} without a message`;
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) return `${path} answered ${status} with data that is no object`;
  return undefined;
}

/** A seed per operation and fuzzer, from FUZZ_SEED: a failure names its seed and path, and replays. */
export function seedOf(label: string): number {
  const base = Number(process.env.FUZZ_SEED ?? 39);
  let hash = base | 0;
  for (const character of label) hash = (Math.imul(hash, 31) + character.charCodeAt(0)) | 0;
  return hash;
}

/** Runs per operation, caller and fuzzer: FUZZ_RUNS, else 1 (a share of `npm test` that stays small). */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1);
