/**
 * The per-visitor limit on the anonymous writes, one rule for AWS and the local server:
 * at most `limit` requests per `windowSeconds` from one client address to the operations
 * that anonymous callers may call and that change data (responses/create, edit, remove
 * and their /feelbacks aliases), answered past the limit with 429 `too-many-requests`.
 * Calls with an `Authorization` header are not counted (a key that is not valid is
 * refused with 401 before anything is written).
 *
 * On AWS a WAF rate-based rule applies it (lib/edge.ts, context `anonymousRateLimit` and
 * `anonymousRateWindowSeconds`); locally local/rate-limiter.ts
 * (`ANONYMOUS_RATE_LIMIT`, `ANONYMOUS_RATE_WINDOW_SECONDS`). docs/scaling.md explains
 * how the limit keys on the visitor's real address.
 */
import type { OperationDeclaration } from './operation';

export const DEFAULT_ANONYMOUS_RATE_LIMIT = 300;
export const DEFAULT_ANONYMOUS_RATE_WINDOW_SECONDS = 300;
/** The evaluation windows a WAF rate-based rule accepts; the local server takes the same. */
export const RATE_WINDOWS_SECONDS = [60, 120, 300, 600] as const;

export interface AnonymousRateLimit {
  /** Requests per window and client address; 0 turns the limit off. */
  limit: number;
  windowSeconds: number;
}

/**
 * Paths outside the registry that the limit covers too (under the stage): the mails'
 * unsubscribe link (functions/unsubscribe/handler.ts), which needs no credential.
 */
export const ANONYMOUS_EXTRA_PATHS = ['mail/unsubscribe'] as const;

/** Whether the limit applies to an operation: callable anonymously, and not read-only. */
export function isAnonymousWrite(operation: Pick<OperationDeclaration, 'level' | 'readOnly'>): boolean {
  return operation.level === 'anonymous' && !operation.readOnly;
}

/** The operations the limit applies to. */
export function anonymousWriteOperations<Operation extends Pick<OperationDeclaration, 'level' | 'readOnly'>>(operations: readonly Operation[]): Operation[] {
  return operations.filter(isAnonymousWrite);
}

function parse(name: string, raw: unknown, fallback: number, valid: (value: number) => boolean, expected: string): number {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || !valid(value)) throw new Error(`${name} must be ${expected}, got ${String(raw)}`);
  return value;
}

/**
 * Validated settings. `waf`: the values must also be ones a WAF rate-based rule takes (a
 * limit of 10 or more, a window of 60, 120, 300 or 600 s); the local server takes any
 * positive window. `names` say where the values came from, for the error messages.
 */
export function anonymousRateLimit(
  limit: unknown,
  windowSeconds: unknown,
  {
    names = { limit: 'ANONYMOUS_RATE_LIMIT', window: 'ANONYMOUS_RATE_WINDOW_SECONDS' },
    waf = false,
  }: { names?: { limit: string; window: string }; waf?: boolean } = {},
): AnonymousRateLimit {
  const windows = RATE_WINDOWS_SECONDS as readonly number[];
  return {
    limit: parse(
      names.limit,
      limit,
      DEFAULT_ANONYMOUS_RATE_LIMIT,
      (value) => value === 0 || value >= (waf ? 10 : 1),
      `0 (off) or an integer of at least ${waf ? 10 : 1}`,
    ),
    windowSeconds: parse(
      names.window,
      windowSeconds,
      DEFAULT_ANONYMOUS_RATE_WINDOW_SECONDS,
      (value) => (waf ? windows.includes(value) : value >= 1),
      waf ? `one of ${windows.join(', ')}` : 'a positive integer',
    ),
  };
}
