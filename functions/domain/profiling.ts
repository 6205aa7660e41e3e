import UAParser from 'ua-parser-js';
import { BoundedCache } from './bounded-cache';

export const PROFILING_FIELDS = [
  'userId',
  'sessionId',
  'os',
  'osVersion',
  'formFactor',
  'device',
  'deviceBrand',
  'browser',
  'browserVersion',
  'country',
  'city',
  'language',
] as const;
export type ProfilingField = (typeof PROFILING_FIELDS)[number];
export type Profiling = Partial<Record<ProfilingField, string>>;

export const PROFILING_VALUE_MAX_LENGTH = 256;

/** What the server may use to fill in profiling: only data the caller itself sent. */
export interface ProfilingSources {
  /** Request headers, names in lower case. */
  headers: Record<string, string | undefined>;
  context?: Record<string, unknown>;
}

function clip(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, PROFILING_VALUE_MAX_LENGTH) : undefined;
}

/** The first language of an Accept-Language header, e.g. "fr-CH, fr;q=0.9" -> "fr-CH". */
export function primaryLanguage(acceptLanguage: string | undefined): string | undefined {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  return first && first !== '*' ? first : undefined;
}

/** ua-parser leaves `type` empty for desktops; "desktop" is what a dashboard wants to group by. */
function formFactor(deviceType: string | undefined, osName: string | undefined): string | undefined {
  if (deviceType) return deviceType;
  return osName ? 'desktop' : undefined;
}

function decodeHeader(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Parsed User-Agents by their text: parsing runs some hundred regular expressions, the most
 * CPU a response costs besides its write, and a site's visitors send few distinct agents.
 * Bounded, so a flood of distinct agents costs memory no more than the cap.
 */
const parsedAgents = new BoundedCache<string, UAParser.IResult>({
  maxEntries: 1000,
  // About 2 MB at most, whatever the agents' lengths (a header may hold kilobytes).
  maxSize: 2_000_000,
  sizeOf: (_, text) => text.length + 1000,
});

function parseAgent(text: string): UAParser.IResult {
  let parsed = parsedAgents.get(text);
  if (!parsed) {
    parsed = new UAParser(text).getResult();
    parsedAgents.set(text, parsed);
  }
  return parsed;
}

/**
 * Profiling as stored: the caller's fields verbatim, the missing ones derived from the
 * User-Agent (ua-parser-js 1.x, MIT), Accept-Language, CloudFront viewer headers (when
 * the API sits behind CloudFront) and `context.$user`. Nothing is invented: a field
 * with no source stays absent.
 */
export function deriveProfiling(given: Profiling | undefined, sources: ProfilingSources): Profiling {
  const { headers } = sources;
  const agent = headers['user-agent'] ? parseAgent(headers['user-agent']) : undefined;
  const user = sources.context?.$user;
  const derived: Profiling = {
    userId: typeof user === 'string' || typeof user === 'number' ? clip(String(user)) : undefined,
    os: clip(agent?.os.name),
    osVersion: clip(agent?.os.version),
    formFactor: clip(formFactor(agent?.device.type, agent?.os.name)),
    device: clip(agent?.device.model),
    deviceBrand: clip(agent?.device.vendor),
    browser: clip(agent?.browser.name),
    browserVersion: clip(agent?.browser.version),
    country: clip(headers['cloudfront-viewer-country']),
    city: clip(decodeHeader(headers['cloudfront-viewer-city'])),
    language: clip(primaryLanguage(headers['accept-language'])),
  };
  const profiling: Profiling = {};
  for (const field of PROFILING_FIELDS) {
    const value = given?.[field] ?? derived[field];
    if (value !== undefined) profiling[field] = value;
  }
  return profiling;
}
