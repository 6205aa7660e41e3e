/**
 * Whom the per-visitor limit (functions/api/rate-limits.ts) counts: an IPv4 address as is,
 * an IPv6 address by its /64 (one visitor's home or phone network is handed a whole /64,
 * 2^64 addresses, so counting single IPv6 addresses would not limit anyone), an
 * IPv4-mapped IPv6 address (`::ffff:198.51.100.7`, what a dual-stack socket reports for an
 * IPv4 client) as the IPv4 address; so is the deprecated IPv4-compatible `::198.51.100.7`,
 * which ipaddr.js reads as mapped.
 *
 * The local server keys its limiter with this function (local/rate-limiter.ts).
 * On AWS the viewer-request CloudFront function in lib/edge.ts computes the same key with
 * a small parser of its own (CloudFront Functions cannot load libraries);
 * test/infra/edge.test.ts checks that both give the same keys.
 */
import ipaddr from 'ipaddr.js';

/** `198.51.100.7`, `2001:db8:1:2::/64` (RFC 5952 text); anything that is not an address is returned as given. */
export function visitorKey(address: string): string {
  // A zone id (`fe80::1%eth0`) names the local interface, not the visitor.
  const bare = address.split('%')[0];
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return bare;
  if (!ipaddr.IPv6.isValid(bare)) return address;
  const parsed = ipaddr.IPv6.parse(bare);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${bare}/64`).toString()}/64`;
}
