import dns from 'node:dns';
import net from 'node:net';

/**
 * Keeps this test process on this machine: every connection to an address outside
 * 127.0.0.0/8 and ::1 is refused before a packet leaves, and every name but `localhost`
 * fails to resolve without asking a resolver (which sits on another address). The fuzzers
 * make up webhook URLs and hosts at random, and the server under test runs in this process:
 * its webhook deliveries and DNS lookups must never leave the loopback range. Answers the
 * destinations it refused; `restore` puts the originals back.
 */
export function confineToLoopback(): { refused: string[]; restore(): void } {
  const refused: string[] = [];
  const isLoopback = (host: string) => net.isIP(host) !== 0 && (/^127\./.test(host) || host === '::1' || host === '::ffff:127.0.0.1');
  const originalConnect = net.Socket.prototype.connect;
  const originalLookup = dns.lookup;
  const originalPromisesLookup = dns.promises.lookup;

  net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
    // net.connect hands over its normalized arguments as one array: [options, callback].
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options = (typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as {
      host?: unknown;
      path?: unknown;
      port?: unknown;
    };
    // Unix sockets and loopback addresses only; a name is resolved through the lookup below first.
    const host = typeof options.host === 'string' ? options.host : 'localhost';
    if (options.path === undefined && host !== 'localhost' && net.isIP(host) !== 0 && !isLoopback(host)) {
      refused.push(`${host}:${String(options.port)}`);
      process.nextTick(() => this.destroy(Object.assign(new Error(`confined to loopback: ${host}`), { code: 'ECONNREFUSED' })));
      return this;
    }
    return (originalConnect as (...all: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  const notFound = (hostname: string) => Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  dns.lookup = function lookup(hostname: string, ...rest: unknown[]) {
    if (hostname === 'localhost' || net.isIP(hostname) !== 0) return (originalLookup as (...all: unknown[]) => void)(hostname, ...rest);
    refused.push(hostname);
    const callback = rest.at(-1) as (error: Error) => void;
    process.nextTick(() => callback(notFound(hostname)));
  } as typeof dns.lookup;
  dns.promises.lookup = (async (hostname: string, options?: unknown) => {
    if (hostname === 'localhost' || net.isIP(hostname) !== 0) return originalPromisesLookup(hostname, options as dns.LookupAllOptions);
    refused.push(hostname);
    throw notFound(hostname);
  }) as typeof dns.promises.lookup;

  return {
    refused,
    restore() {
      net.Socket.prototype.connect = originalConnect;
      dns.lookup = originalLookup;
      dns.promises.lookup = originalPromisesLookup;
    },
  };
}
