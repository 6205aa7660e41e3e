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

/** The viewer's address when the request came through the distribution, else the connection's. */
export function callerAddress(headers: Record<string, string | undefined>, connectionAddress: string | undefined): string | undefined {
  const viewer = headers[VIEWER_ADDRESS_HEADER]?.trim();
  if (headers[ORIGIN_VERIFY_HEADER] !== undefined && viewer && isIP(viewer) !== 0) return viewer;
  return connectionAddress;
}
