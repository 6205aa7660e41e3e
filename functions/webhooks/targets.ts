/**
 * Which URLs a webhook may post to (the SSRF guard).
 *
 * On AWS a webhook URL must be `https` and resolve to public unicast addresses only:
 * loopback, private (10/8, 172.16/12, 192.168/16), link-local (169.254/16, where the
 * instance metadata service lives), unique-local (fc00::/7), carrier-grade NAT, multicast,
 * reserved, and every IPv6 form that embeds an IPv4 address (IPv4-mapped, IPv4-compatible,
 * NAT64, 6to4, Teredo, ...) are refused. The check runs at
 * create/save (every address the name resolves to) and again at delivery, inside the
 * connection's own DNS lookup (`guardedLookup`), so the address checked is the address
 * connected to: a name that re-resolves to 127.0.0.1 after passing at create time (DNS
 * rebinding) is still refused.
 *
 * `npm start` allows private targets and plain `http` (`WEBHOOK_ALLOW_PRIVATE_TARGETS=true`,
 * its default), so a receiver on the developer's machine works.
 */
import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { isIP } from 'node:net';
import { MAX_WEBHOOK_URL_LENGTH } from '../domain/webhooks';

export function privateTargetsAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true';
}

/**
 * IANA's global unicast block: every IPv6 address the registries hand out lies in it. Outside
 * it ipaddr.js still calls some addresses 'unicast', notably the deprecated IPv4-compatible
 * `::/96` (`::127.0.0.1` is `::7f00:1`) and the rest of `::/8`.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Public unicast: the only addresses a webhook may reach when private targets are not allowed.
 *
 * An address is public when ipaddr.js names its range 'unicast' (every special range it knows,
 * present or future, is refused) and, for IPv6, it is in 2000::/3. No IPv6 transition or
 * translation form is unwrapped to judge the IPv4 address inside it: IPv4-mapped
 * (::ffff:0:0/96), IPv4-compatible (::/96), SIIT (::ffff:0:0:0/96), NAT64 (64:ff9b::/96,
 * 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32, the IPv4 XOR-ed) are all refused
 * outright, whatever they embed: a webhook receiver has no business being reached through
 * one, and refusing them all leaves no embedded private address to miss.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** The host of a URL as an address literal (IPv6 without brackets), or undefined for a name. */
function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** What is wrong with a webhook URL's form, or undefined (no DNS here). */
export function urlProblem(text: string, allowPrivate = privateTargetsAllowed()): string | undefined {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) {
    return allowPrivate ? 'must be an http or https URL' : 'must be an https URL';
  }
  if (url.username || url.password) return 'must not carry credentials (receivers authenticate deliveries by their signature)';
  if (!url.hostname) return 'must name a host';
  const literal = literalAddress(url.hostname);
  if (literal && !allowPrivate && !isPublicAddress(literal)) return `must not target a private, loopback or link-local address (${literal})`;
  return undefined;
}

/** What is wrong with a webhook URL, resolving its host: every address must be public (unless private targets are allowed). */
export async function targetProblem(text: string, allowPrivate = privateTargetsAllowed()): Promise<string | undefined> {
  const problem = urlProblem(text, allowPrivate);
  if (problem || allowPrivate) return problem;
  const { hostname } = new URL(text);
  if (literalAddress(hostname)) return undefined;
  let addresses: LookupAddress[];
  try {
    addresses = await dnsLookupAll(hostname, { all: true, verbatim: true });
  } catch (error) {
    return `host ${hostname} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})`;
  }
  const refused = addresses.find((address) => !isPublicAddress(address.address));
  return refused ? `must not resolve to a private, loopback or link-local address (${hostname} is ${refused.address})` : undefined;
}

export const TARGET_REFUSED = 'ETARGETREFUSED';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request / net.connect that refuses names resolving to any non-public
 * address. Literal addresses never reach a lookup: check them with `urlProblem` first.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((address) => !isPublicAddress(address.address));
    if (refused) {
      const denial: NodeJS.ErrnoException = new Error(`${hostname} resolves to a non-public address (${refused.address}); refused`);
      denial.code = TARGET_REFUSED;
      return callback(denial, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
