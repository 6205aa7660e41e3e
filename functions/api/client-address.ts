/**
 * The caller's address as the audit log records it (docs/api.md, "Audit log").
 *
 * On AWS every request reaches the API through the CloudFront distribution (lib/edge.ts):
 * the stage's web ACL refuses any request without the distribution's secret
 * ORIGIN_VERIFY_HEADER, so API Gateway's `sourceIp` is a CloudFront edge's address, and
 * the viewer's is in VIEWER_ADDRESS_HEADER, which the distribution's viewer-request
 * function sets from `event.viewer.ip` (replacing anything the client sent). That header
 * is trusted only on a request that carries the origin header (it came through the
 * distribution); the local server, which has no distribution, drops both headers from
 * what clients send (local/server.ts), so there the socket's address is the caller's.
 *
 * The header names are declared here, and lib/edge.ts sets them from these.
 */
import { isIP } from 'node:net';

/** Set by the distribution's edge function from the viewer's address (lib/edge.ts). */
export const VIEWER_ADDRESS_HEADER = 'x-feedback-viewer-address';
/** Added by the distribution to every request it sends to the API (lib/edge.ts). */
export const ORIGIN_VERIFY_HEADER = 'x-feedback-origin-verify';
/**
 * Set by the edge function on every request to the per-visitor key the rate-based rule counts:
 * the IPv4 address, or the /64 of an IPv6 address (functions/api/visitor-key.ts); whatever a
 * client sends under this name is replaced.
 */
export const VISITOR_KEY_HEADER = 'x-feedback-visitor-key';

/** The viewer's address when the request came through the distribution, else the connection's. */
export function callerAddress(headers: Record<string, string | undefined>, connectionAddress: string | undefined): string | undefined {
  const viewer = headers[VIEWER_ADDRESS_HEADER]?.trim();
  if (headers[ORIGIN_VERIFY_HEADER] !== undefined && viewer && isIP(viewer) !== 0) return viewer;
  return connectionAddress;
}

/**
 * Whom `onePerVisitor` recognises (docs/api.md, "One vote per visitor"): through the
 * distribution, the visitor key its edge function computed (an IPv6 viewer by the /64);
 * else the caller's address as given (the local server's socket or TRUST_PROXY address).
 * Not visitor-key.ts itself: its address parser would weigh 13 KB in the widgets' bundle.
 */
export function callerVisitorKey(headers: Record<string, string | undefined>, sourceIp: string | undefined): string | undefined {
  const key = headers[VISITOR_KEY_HEADER]?.trim();
  if (headers[ORIGIN_VERIFY_HEADER] !== undefined && key) return key;
  return sourceIp;
}
