let visitors = 0;

/**
 * The user agent and address of an anonymous call that names no user agent: a visitor of
 * its own each time, from an address of its own (`X-Forwarded-For`, which the test servers
 * trust from one proxy: startTestApi, startNpmStart). Tests stand for many visitors; sets whose
 * schema records one vote per visitor (`onePerVisitor`, docs/api.md) would otherwise take
 * their calls for one visitor's changes of mind, and the address limit (docs/api.md
 * "Quarantine") would hold the calls of more than three user agents from one address on an
 * item. A test that means one visitor names its user agent (and comes from the socket's
 * address, 127.0.0.1, unless it names an `X-Forwarded-For` too).
 */
export function anonymousVisitor(options: { key?: string; headers?: Record<string, string> }): Record<string, string> {
  const named = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'user-agent' || name.toLowerCase() === 'authorization');
  if (options.key || named) return {};
  const visitor = ++visitors;
  return { 'user-agent': `test-visitor/${process.pid}.${visitor}`, 'x-forwarded-for': visitorAddress(visitor) };
}

/** The visitor's own address: 198.18.0.0/15 is set aside for tests of network devices (RFC 2544), 131,072 addresses. */
export function visitorAddress(visitor: number): string {
  const index = visitor % 131_072;
  return `198.${18 + (index >> 16)}.${(index >> 8) & 255}.${index & 255}`;
}

/** What the test servers take from `X-Forwarded-For`: one trusted proxy's entry, and no per-visitor limit (local/rate-limiter.ts). */
export const TEST_SERVER_ADDRESSES = { limit: 0, windowSeconds: 60, trustedProxies: 1 };
