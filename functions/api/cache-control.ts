/**
 * How long a public answer may be kept by CloudFront. Only responses/getAggregates answers to
 * GET for sets with publicAggregates are public (the widgets' counts, the same for every
 * visitor); every other answer is `no-store` (adapter.ts). Browsers keep none of it: a
 * visitor who votes and reloads must see the vote, so the answer says `max-age=0` for
 * private caches and `s-maxage=N` for shared ones, which CloudFront honours over max-age.
 */
export const DEFAULT_AGGREGATES_MAX_AGE_SECONDS = 10;

/** `AGGREGATES_MAX_AGE_SECONDS` (whole seconds, 0 turns caching off), default 10. */
export function aggregatesMaxAge(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.AGGREGATES_MAX_AGE_SECONDS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_AGGREGATES_MAX_AGE_SECONDS;
  const seconds = Number(raw);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : DEFAULT_AGGREGATES_MAX_AGE_SECONDS;
}

/** The Cache-Control of an answer shared caches may keep for `seconds` and browsers revalidate (none when 0). */
export function publicCacheControl(seconds: number): string {
  return seconds > 0 ? `public, max-age=0, s-maxage=${seconds}` : 'no-store';
}
