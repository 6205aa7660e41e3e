import { badRequest, type InvalidField } from './errors';

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

function collect(value: unknown, path: string, found: InvalidField[]): void {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) found.push({ path, message: 'holds a lone UTF-16 surrogate, which is not a character' });
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collect(item, `${path}.${index}`, found);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    const keyPath = `${path}.${describeKey(key)}`;
    if (PROTOTYPE_KEYS.has(key)) found.push({ path: keyPath, message: `'${key}' is not allowed as an object key` });
    else if (LONE_SURROGATE.test(key)) found.push({ path: keyPath, message: 'an object key holds a lone UTF-16 surrogate, which is not a character' });
    collect(item, keyPath, found);
  }
}

/**
 * Refuses, with `bad-request` naming each place, arguments that could not be stored and read
 * back exactly as sent: prototype member names as object keys and lone surrogates in keys
 * or strings. Runs on the parsed arguments of every operation, before validation; its work
 * is linear in the body, which the adapter has already bounded.
 */
export function checkJsonInput(args: unknown[]): void {
  const found: InvalidField[] = [];
  collect(args, 'args', found);
  if (found.length > 0) throw badRequest('The arguments hold object keys or text that cannot be stored as sent', found);
}
