import { type ApiError, badRequest, type InvalidField } from './errors';

/**
 * How deep arrays and objects may nest in the arguments, the argument list itself counting
 * as the first level. No operation's arguments need more than a handful; the bound keeps the
 * walk below (and anything after it) from working through a body of `[[[[...]]]]` tens of
 * thousands deep.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Object keys that JavaScript objects carry on their prototype. A context or metadata key
 * with one of these names would read the prototype's member instead of the caller's
 * value somewhere between parsing and storing (`__proto__` is even dropped by object
 * spread), so it could not be read back exactly as sent: such keys are refused.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A UTF-16 surrogate without its partner: not a Unicode character, and not storable as UTF-8 in DynamoDB. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function describeKey(key: string): string {
  return LONE_SURROGATE.test(key) ? 'an object key with a lone surrogate' : key;
}

/** A value still to be looked at: where it is, how many arrays and objects hold it, and its object key if it has one. */
interface Pending {
  value: unknown;
  path: string;
  depth: number;
  key?: string;
}

function tooDeep(path: string): ApiError {
  return badRequest(`The arguments must nest at most ${MAX_ARGUMENT_DEPTH} levels of arrays and objects (the argument list is the first)`, [
    { path, message: `nests deeper than ${MAX_ARGUMENT_DEPTH} levels` },
  ]);
}

/**
 * Every place of the arguments, in document order, with an explicit stack rather than
 * recursion: the depth is the caller's to choose, and recursing on it overflowed the stack.
 */
function collect(args: unknown[]): InvalidField[] {
  const found: InvalidField[] = [];
  const pending: Pending[] = [{ value: args, path: 'args', depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path, depth, key } = next;
    if (key !== undefined) {
      if (PROTOTYPE_KEYS.has(key)) found.push({ path, message: `'${key}' is not allowed as an object key` });
      else if (LONE_SURROGATE.test(key)) found.push({ path, message: 'an object key holds a lone UTF-16 surrogate, which is not a character' });
    }
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) found.push({ path, message: 'holds a lone UTF-16 surrogate, which is not a character' });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_ARGUMENT_DEPTH) throw tooDeep(path);
    const children: Pending[] = Array.isArray(value)
      ? value.map((item, index) => ({ value: item, path: `${path}.${index}`, depth: depth + 1 }))
      : Object.entries(value).map(([name, item]) => ({ value: item, path: `${path}.${describeKey(name)}`, depth: depth + 1, key: name }));
    // Reversed, so that the first child is taken next: the places are reported in the order they were sent.
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]);
  }
  return found;
}

/**
 * Refuses, with `bad-request` naming each place, arguments that could not be stored and read
 * back exactly as sent: prototype member names as object keys and lone surrogates in keys
 * or strings; and arguments nested deeper than MAX_ARGUMENT_DEPTH, naming the first place.
 * Runs on the parsed arguments of every operation, before validation; its work is linear in
 * the body, which the adapter has already bounded.
 */
export function checkJsonInput(args: unknown[]): void {
  const found = collect(args);
  if (found.length > 0) throw badRequest('The arguments hold object keys or text that cannot be stored as sent', found);
}
