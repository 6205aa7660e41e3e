/**
 * The per-visitor key of the anonymous-write limit (functions/api/visitor-key.ts): IPv4 as
 * is, IPv6 by its /64, IPv4-mapped IPv6 as the IPv4 address. test/infra/edge.test.ts checks
 * that the CloudFront function computes the same keys.
 */
import { visitorKey } from '../../functions/api/visitor-key';

test('an IPv4 address is its own key', () => {
  expect(visitorKey('198.51.100.7')).toBe('198.51.100.7');
  expect(visitorKey('127.0.0.1')).toBe('127.0.0.1');
});

test('an IPv6 address is keyed by its /64, in RFC 5952 text, whatever form it was written in', () => {
  expect(visitorKey('2001:0db8:0001:0002:0003:0004:0005:0006')).toBe('2001:db8:1:2::/64');
  expect(visitorKey('2001:DB8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
  expect(visitorKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
  expect(visitorKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  // Zero groups at the end of the prefix fold into the `::`; a single zero group elsewhere stays.
  expect(visitorKey('2001:db8::1')).toBe('2001:db8::/64');
  expect(visitorKey('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
  expect(visitorKey('0:0:1:2::9')).toBe('0:0:1:2::/64');
  expect(visitorKey('::1')).toBe('::/64');
});

test('an IPv4-mapped IPv6 address (a dual-stack socket reporting an IPv4 client) is the IPv4 address', () => {
  expect(visitorKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
  expect(visitorKey('::FFFF:c633:6407')).toBe('198.51.100.7');
  expect(visitorKey('0:0:0:0:0:ffff:127.0.0.1')).toBe('127.0.0.1');
  // The deprecated IPv4-compatible form too (ipaddr.js reads it as mapped), but not its hex spelling.
  expect(visitorKey('::198.51.100.7')).toBe('198.51.100.7');
  expect(visitorKey('::c633:6407')).toBe('::/64');
});

test('a zone id names the local interface, not the visitor: dropped', () => {
  expect(visitorKey('fe80::1234:5678%eth0')).toBe('fe80::/64');
  expect(visitorKey('fe80::1%25')).toBe('fe80::/64');
});

test('what is not an address is returned as given (its own key)', () => {
  for (const garbage of ['unknown', '', 'not:an:address', '2001:db8::1::2', '1.2.3', '256.1.1.1', '12345::']) {
    expect(visitorKey(garbage)).toBe(garbage);
  }
});
