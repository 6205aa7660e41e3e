/**
 * The local server's per-visitor limit on the anonymous writes: what the WAF rate-based
 * rule does on AWS (functions/api/rate-limits.ts), with the same defaults, counted in
 * memory by rate-limiter-flexible per visitor: the client address, an IPv6 one by its /64
(functions/api/visitor-key.ts, the key the edge function computes on AWS).
 *
 * The address is the socket's. `X-Forwarded-For` is read only when `TRUST_PROXY` says how
 * many proxies in front of the server append to it (`true` = 1): the address is then the
 * entry that the outermost trusted proxy appended, never one the client wrote itself.
 */
import type { IncomingMessage } from 'node:http';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { anonymousRateLimit, type AnonymousRateLimit } from '../functions/api/rate-limits';
import { visitorKey } from '../functions/api/visitor-key';

export interface LocalRateLimitSettings extends AnonymousRateLimit {
  /** Proxies in front of this server whose `X-Forwarded-For` entries are trusted; 0: the socket address. */
  trustedProxies: number;
}

/** TRUST_PROXY: unset, empty, `false` or `0` = none; `true` = 1; a number = that many. */
export function trustedProxies(value: string | undefined): number {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'false' || text === '0') return 0;
  if (text === 'true') return 1;
  const hops = Number(text);
  if (!Number.isInteger(hops) || hops < 0) throw new Error(`TRUST_PROXY must be true, false or a number of proxies, got ${value}`);
  return hops;
}

export function rateLimitSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalRateLimitSettings {
  return {
    ...anonymousRateLimit(env.ANONYMOUS_RATE_LIMIT, env.ANONYMOUS_RATE_WINDOW_SECONDS),
    trustedProxies: trustedProxies(env.TRUST_PROXY),
  };
}

/** The visitor's address: the socket's, or the trusted proxies' record of it. */
export function clientAddress(request: IncomingMessage, hops: number): string {
  const socket = request.socket.remoteAddress ?? 'unknown';
  if (hops === 0) return socket;
  const header = request.headers['x-forwarded-for'];
  const entries = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Each trusted proxy appended the address it saw; the outermost one's entry is the client.
  return entries.length >= hops ? entries[entries.length - hops] : socket;
}

export type LimitDecision = { limited: false } | { limited: true; retryAfterSeconds: number };

export class AnonymousWriteLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(readonly settings: LocalRateLimitSettings) {
    this.limiter = new RateLimiterMemory({ points: settings.limit, duration: settings.windowSeconds, keyPrefix: 'anonymous-writes' });
  }

  /** Counts one anonymous write of this request's client; keyed requests are not counted. */
  async check(request: IncomingMessage): Promise<LimitDecision> {
    if (this.settings.limit === 0) return { limited: false };
    const authorization = request.headers.authorization;
    if (typeof authorization === 'string' && authorization.trim() !== '') return { limited: false };
    try {
      await this.limiter.consume(visitorKey(clientAddress(request, this.settings.trustedProxies)));
      return { limited: false };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
  }
}
