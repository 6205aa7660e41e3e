let visitors = 0;

/**
 * The user agent of an anonymous call that names none: a visitor of its own each time.
 * Tests stand for many visitors from one address; sets whose schema records one vote per
 * visitor (`onePerVisitor`, docs/api.md) would otherwise take their calls for one visitor's
 * changes of mind. A test that means one visitor names its user agent.
 */
export function anonymousVisitor(options: { key?: string; headers?: Record<string, string> }): Record<string, string> {
  const named = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'user-agent' || name.toLowerCase() === 'authorization');
  return options.key || named ? {} : { 'user-agent': `test-visitor/${process.pid}.${++visitors}` };
}
