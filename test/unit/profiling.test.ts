import { deriveProfiling, primaryLanguage, PROFILING_FIELDS, PROFILING_VALUE_MAX_LENGTH, type Profiling } from '../../functions/domain/profiling';

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPAD_SAFARI = 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('PROFILING_FIELDS', () => {
  it('lists the ProfilingData fields of SPEC part 2', () => {
    expect([...PROFILING_FIELDS].sort()).toEqual(
      ['userId', 'sessionId', 'os', 'osVersion', 'formFactor', 'device', 'deviceBrand', 'browser', 'browserVersion', 'country', 'city', 'language'].sort(),
    );
    expect(PROFILING_VALUE_MAX_LENGTH).toBe(256);
  });
});

describe('primaryLanguage', () => {
  it.each<[string | undefined, string | undefined]>([
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr-CH'],
    ['en-US,en;q=0.9', 'en-US'],
    ['de', 'de'],
    ['en;q=0.8', 'en'],
    ['  pt-BR  ;q=1 , pt', 'pt-BR'],
    ['*', undefined],
    ['*;q=0.5', undefined],
    ['', undefined],
    ['   ', undefined],
    [',fr', undefined],
    [undefined, undefined],
  ])('%j -> %j', (header, language) => {
    expect(primaryLanguage(header)).toBe(language);
  });
});

describe('deriveProfiling', () => {
  it('derives device, system and browser from an iPhone Safari User-Agent', () => {
    expect(deriveProfiling(undefined, { headers: { 'user-agent': IPHONE_SAFARI } })).toEqual({
      os: 'iOS',
      osVersion: '17.4',
      formFactor: 'mobile',
      device: 'iPhone',
      deviceBrand: 'Apple',
      browser: 'Mobile Safari',
      browserVersion: '17.4',
    });
  });

  it('tells tablets, Android phones and desktops apart', () => {
    expect(deriveProfiling(undefined, { headers: { 'user-agent': IPAD_SAFARI } })).toMatchObject({ formFactor: 'tablet', device: 'iPad', os: 'iOS' });
    expect(deriveProfiling(undefined, { headers: { 'user-agent': ANDROID_CHROME } })).toEqual({
      os: 'Android',
      osVersion: '14',
      formFactor: 'mobile',
      device: 'Pixel 7',
      deviceBrand: 'Google',
      browser: 'Chrome',
      browserVersion: '124.0.0.0',
    });
    // ua-parser leaves the device type of desktops empty: "desktop" comes from having an OS.
    expect(deriveProfiling(undefined, { headers: { 'user-agent': WINDOWS_CHROME } })).toEqual({
      os: 'Windows',
      osVersion: '10',
      formFactor: 'desktop',
      browser: 'Chrome',
      browserVersion: '124.0.0.0',
    });
  });

  it("derives each agent's own fields when agents alternate (parses are remembered per agent)", () => {
    const derive = (agent: string) => deriveProfiling(undefined, { headers: { 'user-agent': agent } });
    const first = [IPHONE_SAFARI, ANDROID_CHROME, WINDOWS_CHROME].map(derive);
    for (let round = 0; round < 3; round++) {
      expect([WINDOWS_CHROME, IPHONE_SAFARI, ANDROID_CHROME].map(derive)).toEqual([first[2], first[0], first[1]]);
    }
    expect(first.map((profiling) => profiling.os)).toEqual(['iOS', 'Android', 'Windows']);
  });

  it('invents nothing for agents it does not recognise, nor a form factor without an OS', () => {
    for (const agent of ['curl/8.4.0', 'node', '', '   ']) {
      expect(deriveProfiling(undefined, { headers: { 'user-agent': agent } })).toEqual({});
    }
  });

  it('takes the language from Accept-Language and the place from CloudFront viewer headers', () => {
    expect(
      deriveProfiling(undefined, {
        headers: { 'accept-language': 'fr-CH, fr;q=0.9', 'cloudfront-viewer-country': 'CH', 'cloudfront-viewer-city': 'Z%C3%BCrich' },
      }),
    ).toEqual({ language: 'fr-CH', country: 'CH', city: 'Zürich' });
    expect(deriveProfiling(undefined, { headers: { 'cloudfront-viewer-city': 'San%20Francisco' } })).toEqual({ city: 'San Francisco' });
    // A city header that is not valid percent-encoding is kept as it came.
    expect(deriveProfiling(undefined, { headers: { 'cloudfront-viewer-city': 'Bad%E0%A4%A' } })).toEqual({ city: 'Bad%E0%A4%A' });
    expect(deriveProfiling(undefined, { headers: { 'accept-language': '*' } })).toEqual({});
  });

  it('takes userId from context.$user when it is a string or a number', () => {
    expect(deriveProfiling(undefined, { headers: {}, context: { $user: 'reader@example.com' } })).toEqual({ userId: 'reader@example.com' });
    expect(deriveProfiling(undefined, { headers: {}, context: { $user: 42 } })).toEqual({ userId: '42' });
    for (const $user of [true, false, null, undefined, { id: 1 }, ['a'], '', '   ']) {
      expect(deriveProfiling(undefined, { headers: {}, context: { $user } })).toEqual({});
    }
    expect(deriveProfiling(undefined, { headers: {}, context: { user: 'not $user' } })).toEqual({});
  });

  it('trims derived values and cuts them to 256 characters', () => {
    expect(
      deriveProfiling(undefined, {
        headers: { 'cloudfront-viewer-country': '  FR  ', 'cloudfront-viewer-city': 'c'.repeat(300) },
        context: { $user: 'u'.repeat(1000) },
      }),
    ).toEqual({ country: 'FR', city: 'c'.repeat(256), userId: 'u'.repeat(256) });
    expect(deriveProfiling(undefined, { headers: { 'cloudfront-viewer-country': '   ' } })).toEqual({});
  });

  it('keeps caller-given fields over derived ones, and derives only the missing ones', () => {
    const given: Profiling = { os: 'Plan 9', userId: 'given-user', language: 'de', sessionId: 'session-1' };
    expect(
      deriveProfiling(given, {
        headers: { 'user-agent': IPHONE_SAFARI, 'accept-language': 'fr-CH', 'cloudfront-viewer-country': 'CH' },
        context: { $user: 'context-user' },
      }),
    ).toEqual({
      os: 'Plan 9',
      osVersion: '17.4',
      formFactor: 'mobile',
      device: 'iPhone',
      deviceBrand: 'Apple',
      browser: 'Mobile Safari',
      browserVersion: '17.4',
      country: 'CH',
      language: 'de',
      userId: 'given-user',
      sessionId: 'session-1',
    });
  });

  it('lets an absent given field (undefined) be derived, and drops fields that are not ProfilingData', () => {
    const given = { os: undefined, browser: 'Lynx', ip: '10.0.0.1' } as Profiling;
    expect(deriveProfiling(given, { headers: { 'user-agent': WINDOWS_CHROME } })).toEqual({
      os: 'Windows',
      osVersion: '10',
      formFactor: 'desktop',
      browser: 'Lynx',
      browserVersion: '124.0.0.0',
    });
  });

  it('returns nothing when the caller sent nothing, and exactly the given fields without headers', () => {
    expect(deriveProfiling(undefined, { headers: {} })).toEqual({});
    expect(deriveProfiling({}, { headers: {}, context: {} })).toEqual({});
    expect(deriveProfiling({ country: 'NZ', city: 'Wellington' }, { headers: {} })).toEqual({ country: 'NZ', city: 'Wellington' });
  });

  it('does not change the given object', () => {
    const given: Profiling = { os: 'Plan 9' };
    deriveProfiling(given, { headers: { 'user-agent': IPHONE_SAFARI } });
    expect(given).toEqual({ os: 'Plan 9' });
  });
});
