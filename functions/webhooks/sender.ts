/**
 * One delivery attempt: a signed POST, and what its answer means.
 *
 * Standard Webhooks v1: `webhook-id` (stable for one event to one endpoint), `webhook-timestamp`
 * (unix seconds of this attempt), `webhook-signature` (`v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">` keyed with the secret's decoded bytes; one per live secret,
 * space-separated), signed with the `standardwebhooks` package (the reference library
 * receivers verify with).
 *
 * Sent with node:http/https rather than fetch: the request takes a `lookup`, which is where
 * the SSRF guard checks the address actually connected to (webhooks/targets.ts); redirects
 * are never followed (http.request has no such behaviour); `AbortSignal.timeout` bounds the
 * whole exchange to 10 s.
 *
 * What an attempt reports of the receiver's answer (the delivery log's lastError and the
 * `webhooks/test` answer) depends on the address it came from. From a public address: the
 * status code, status text and the first 200 characters of the body (or the redirect's
 * Location). From a non-public one (only reachable with WEBHOOK_ALLOW_PRIVATE_TARGETS): the
 * status code alone, with no duration, and the body is never read, so the service cannot be
 * used to read, or time, an internal endpoint. A refused target is refused before connecting
 * and reports the refusal only.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { ATTEMPT_TIMEOUT_MS, parseRetryAfter, verdictOfStatus, type AttemptVerdict } from '../domain/webhooks';
import { guardedLookup, isPublicAddress, privateTargetsAllowed, TARGET_REFUSED, urlProblem } from './targets';

export const USER_AGENT = 'FeedbackService-Webhooks/1.0 (Standard Webhooks v1)';

/** What the delivery log keeps of an answer's body (for lastError). */
const ERROR_BODY_LIMIT = 200;

export interface AttemptRequest {
  url: string;
  /** The exact JSON text posted and signed. */
  body: string;
  /** The `webhook-id` header. */
  messageId: string;
  /** Live secrets (`whsec_...`), newest first: one signature each. */
  secrets: string[];
  now: Date;
  allowPrivate?: boolean;
  timeoutMs?: number;
}

export interface AttemptResult {
  verdict: AttemptVerdict;
  statusCode?: number;
  error?: string;
  retryAfterSeconds?: number;
  durationMs: number;
}

/** The `webhook-signature` header: one `v1,<signature>` per secret, space-separated. */
export function signatureHeader(messageId: string, timestamp: Date, body: string, secrets: string[]): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}

export function deliveryHeaders(request: Pick<AttemptRequest, 'messageId' | 'now' | 'body' | 'secrets'>): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': request.messageId,
    'webhook-timestamp': String(Math.floor(request.now.getTime() / 1000)),
    'webhook-signature': signatureHeader(request.messageId, request.now, request.body, request.secrets),
  };
}

// Connections are reused across attempts to the same receiver (the guard runs on each new connection).
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 32 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 32 }) };

function describeError(error: NodeJS.ErrnoException, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${timeoutMs / 1000} s`;
  if (error.code === TARGET_REFUSED) return error.message;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

/** What a failed answer from a public address reports: status, status text, and the body's head or the redirect's target. */
export function describeAnswer(status: number, message: string | undefined, body: string, location?: string): string {
  if (location) return `HTTP ${status}: redirect to ${location} not followed`;
  const text = body.replace(/\s+/g, ' ').trim();
  const head = `HTTP ${status}${message ? ` ${message}` : ''}`;
  return text ? `${head}: ${Array.from(text).slice(0, ERROR_BODY_LIMIT).join('')}` : head;
}

/** Posts one attempt and classifies the outcome; never throws. */
export async function sendAttempt(attempt: AttemptRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const allowPrivate = attempt.allowPrivate ?? privateTargetsAllowed();
  const timeoutMs = attempt.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const problem = urlProblem(attempt.url, allowPrivate);
  if (problem) return { verdict: 'failed', error: `refused: the URL ${problem}`, durationMs: 0 };
  const url = new URL(attempt.url);
  const https = url.protocol === 'https:';
  const signal = AbortSignal.timeout(timeoutMs);
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    /** `timed`: false for a refusal and for an answer from a non-public address (durationMs 0). */
    const settle = (result: Omit<AttemptResult, 'durationMs'>, timed = true) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: timed ? elapsed() : 0 });
    };
    const onAnswer = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const verdict = verdictOfStatus(status);
      const retryAfterSeconds = parseRetryAfter(response.headers['retry-after'], attempt.now);
      const retryAfter = retryAfterSeconds !== undefined ? { retryAfterSeconds } : {};
      const peer = response.socket?.remoteAddress;
      if (peer === undefined || !isPublicAddress(peer)) {
        // A non-public receiver (private targets allowed): its status code, nothing it said, no timing.
        response.destroy();
        settle({ verdict, statusCode: status, ...(verdict === 'succeeded' ? {} : { error: `HTTP ${status}`, ...retryAfter }) }, false);
        return;
      }
      if (verdict === 'succeeded') {
        response.resume();
        settle({ verdict, statusCode: status });
        return;
      }
      const location = status >= 300 && status < 400 ? response.headers.location : undefined;
      let body = '';
      const finish = () => {
        response.destroy();
        settle({ verdict, statusCode: status, error: describeAnswer(status, response.statusMessage, body, location), ...retryAfter });
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        if (body.length >= ERROR_BODY_LIMIT) finish();
      });
      response.on('end', finish);
      response.on('error', finish);
    };
    const options = {
      method: 'POST',
      headers: deliveryHeaders({ ...attempt, body: attempt.body }),
      agent: https ? agents.https : agents.http,
      signal,
      ...(allowPrivate ? {} : { lookup: guardedLookup }),
    };
    const request = https ? httpsRequest(url, options, onAnswer) : httpRequest(url, options, onAnswer);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error.code === TARGET_REFUSED;
      // A connection error names the address it failed on: no timing for a non-public one either.
      const address = (error as NodeJS.ErrnoException & { address?: string }).address;
      const timed = !refused && (address === undefined || isPublicAddress(address));
      settle({ verdict: refused ? 'failed' : 'retry', error: describeError(error, signal.aborted, timeoutMs) }, timed);
    });
    request.end(attempt.body);
  });
}
