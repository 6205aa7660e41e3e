/**
 * GET and POST /v0/mail/unsubscribe?token=<token>: the Lambda entry of the unsubscribe link
 * (operations/unsubscribe.ts, page.tsx); the local server calls the same handler. Reached
 * without credentials, so it does bounded work: a token of at most 600 characters, a body
 * of at most 2 KB (RFC 8058's `List-Unsubscribe=One-Click`, or the page's empty form), one
 * index Query and at most three reads and two writes. The per-visitor limit of anonymous
 * writes applies to its path (functions/api/rate-limits.ts).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { mailConfiguration } from '../mail/settings';
import { MAX_UNSUBSCRIBE_TOKEN_LENGTH } from '../mail/unsubscribe-token';
import { logger } from '../observability/logger';
import { describeUnsubscribe, type UnsubscribeAnswer, unsubscribe } from '../operations/unsubscribe';
import { defaultTableClient } from '../store/dynamodb-clients';
import { UNSUBSCRIBE_PAGE_HEADERS, unsubscribePage } from './page';

const MAX_BODY_BYTES = 2048;
const STATUS: Record<UnsubscribeAnswer['status'], number> = { valid: 200, done: 200, invalid: 400, gone: 404 };

function page(answer: UnsubscribeAnswer, token: string): APIGatewayProxyResult {
  const configuration = mailConfiguration();
  const consoleUrl = configuration.enabled ? configuration.settings.consoleUrl : process.env.CONSOLE_URL?.trim() || undefined;
  return {
    statusCode: STATUS[answer.status],
    headers: UNSUBSCRIBE_PAGE_HEADERS,
    body: unsubscribePage(answer, { token, ...(consoleUrl ? { consoleUrl } : {}) }),
  };
}

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const token = event.queryStringParameters?.token ?? '';
  const method = event.httpMethod.toUpperCase();
  if (method !== 'GET' && method !== 'POST') {
    return { statusCode: 405, headers: { ...UNSUBSCRIBE_PAGE_HEADERS, Allow: 'GET, POST' }, body: '' };
  }
  if (Buffer.byteLength(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) {
    return { statusCode: 413, headers: UNSUBSCRIBE_PAGE_HEADERS, body: '' };
  }
  if (token === '' || token.length > MAX_UNSUBSCRIBE_TOKEN_LENGTH) return page({ status: 'invalid' }, '');
  try {
    const store = defaultTableClient();
    const now = new Date();
    const answer =
      method === 'GET' ? await describeUnsubscribe(store, token, now) : await unsubscribe(store, token, now, event.requestContext?.requestId ?? '');
    return page(answer, token);
  } catch (error) {
    logger.error('unsubscribe failed', { error: error as Error });
    return {
      statusCode: 503,
      headers: { ...UNSUBSCRIBE_PAGE_HEADERS, 'Retry-After': '60' },
      body: '<!doctype html><title>Try again</title><p>Something went wrong on our side; nothing was changed. Try again in a minute.</p>',
    };
  }
}
