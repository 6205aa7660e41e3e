import { decodeAsApiGateway, hasPercentEscapes } from '../../functions/domain/percent-escapes';
import { restoreWidgetTarget } from '../../functions/domain/widget-query';

describe('decodeAsApiGateway', () => {
  it.each([
    ['https://blog.example/caf%C3%A9?q=hello%20world', 'https://blog.example/café?q=hello world'],
    ['https://blog.example/caf%c3%a9', 'https://blog.example/café'],
    ['/%F0%9F%8E%89/party', '/🎉/party'],
    ['?q=a+b', '?q=a+b'],
    ['?q=a%2Bb', '?q=a+b'],
    ['?q=a%26b&c=d', '?q=a&b&c=d'],
    ['?eq=a%3Db', '?eq=a=b'],
    ['/p%23q', '/p#q'],
    ['?q=100%25', '?q=100%'],
    ['?q=%2541', '?q=%41'],
    ['?q=%22quoted%22', '?q="quoted"'],
    ['?q=back%5Cslash', '?q=back\\slash'],
    ['?q=line%0Abreak', '?q=line\nbreak'],
    ['no escapes at all', 'no escapes at all'],
  ])('decodes %s once, like decodeURIComponent, keeping +', (raw, decoded) => {
    expect(decodeAsApiGateway(raw)).toBe(decoded);
  });

  it('equals decodeURIComponent wherever that one succeeds', () => {
    for (const raw of ['caf%C3%A9', '%E2%82%AC%20%2F%3F', 'a%7e%7E', '%00%1F%7F', '%EF%BF%BD', '%F4%8F%BF%BF']) {
      expect(decodeAsApiGateway(raw)).toBe(decodeURIComponent(raw));
    }
  });

  it.each([
    ['a lone %', '/100%', '/100%'],
    ['% without two hex digits', '/%ZZ/%4', '/%ZZ/%4'],
    ['a truncated sequence', '/caf%C3', '/caf%C3'],
    ['a lead byte before a non-continuation', '/%C3%41', '/%C3A'],
    ['a byte that never starts UTF-8', '/%FF%41%C3%A9', '/%FFAé'],
    ['a stray continuation byte', '/%A9%C3%A9', '/%A9é'],
    ['an overlong form', '/%C0%AF', '/%C0%AF'],
    ['an encoded surrogate', '/%ED%A0%80x', '/%ED%A0%80x'],
    ['valid escapes around a malformed one', '/%E2%82%AC%FF%E2%82%AC', '/€%FF€'],
  ])('leaves %s as written and decodes the rest', (_case, raw, decoded) => {
    expect(decodeAsApiGateway(raw)).toBe(decoded);
  });
});

describe('hasPercentEscapes', () => {
  it.each([
    ['https://blog.example/caf%C3%A9', true],
    ['?q=a%2Bb', true],
    ['?q=100%25', true],
    ['/100%', false],
    ['/%ZZ', false],
    ['?q=a+b', false],
    ['https://blog.example/café', false],
    ['', false],
  ])('%s: %s', (key, expected) => {
    expect(hasPercentEscapes(key)).toBe(expected);
  });
});

/** What the server reads of the widgets' `?$p=`: the JSON they write, with the URL's escapes decoded. */
const decodedWidgetQuery = (contentSetId: string, key: string) => decodeAsApiGateway(JSON.stringify([{ contentSetId, key }]));

describe('restoreWidgetTarget', () => {
  const contentSetId = 'A'.repeat(22);

  it.each([
    ['a quoted query value', 'https://blog.example/s?q=%22exact%20phrase%22'],
    ['a quote closing the JSON early', 'https://blog.example/s?q=%22%7D%5D'],
    ['a line break and a tab', 'https://blog.example/s?q=a%0Ab%09c'],
    ['a NUL', 'https://blog.example/s?q=%00'],
    ['a quote and an &', 'https://blog.example/s?a=%22x%22&b=1'],
  ])('restores %s to the decoded key, which the alias is stored under', (_case, key) => {
    const text = decodedWidgetQuery(contentSetId, key);
    expect(() => JSON.parse(text)).toThrow();
    expect(JSON.parse(restoreWidgetTarget(text)!)).toEqual([{ contentSetId, key: decodeAsApiGateway(key) }]);
  });

  it('reads a valid widget JSON exactly as JSON.parse would, for keys without a backslash', () => {
    for (const key of ['https://blog.example/caf%C3%A9', 'https://x.example/?a=1&b=2', 'plain']) {
      const text = JSON.stringify([{ contentSetId, key }]);
      expect(JSON.parse(restoreWidgetTarget(text)!)).toEqual(JSON.parse(text));
    }
  });

  it.each([
    ['a decoded %5C next to a quote', decodedWidgetQuery(contentSetId, 'https://x.example/?q=%5C%22')],
    ['a literal backslash next to a decoded quote', decodedWidgetQuery(contentSetId, 'https://x.example/?q=\\%22')],
    ['another argument list', '["id","week"'],
    ['a target with a period', `[{"contentSetId":"${contentSetId}","key":"a"b"},"week"]`],
    ['fields in another order', `[{"key":"a"b","contentSetId":"${contentSetId}"}]`],
    ['spaces between the tokens', `[{"contentSetId": "${contentSetId}", "key": "a"b"}]`],
  ])('leaves alone %s', (_case, text) => {
    expect(restoreWidgetTarget(text)).toBeUndefined();
  });
});
