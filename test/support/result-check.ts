import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { answersNoContent, type OperationDeclaration } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { operationRoutes } from '../../functions/api/routes';
import { BASE_PATH } from '../../local/server';
import { UNSUBSCRIBE_PATH } from '../../functions/mail/settings';

/**
 * The result check of the integration tests: every successful answer of an operation must
 * be what its declaration's result model says, so a handler cannot drift from the
 * registry (and from the OpenAPI document and client generated from it).
 *
 * A 200 body is parsed with the model and must come out unchanged: the models' objects
 * strip unknown fields, so a field the model does not declare (a leak of an internal
 * attribute, say) makes the parsed value differ from the answer. A `void` operation must
 * answer 204, every other one 200.
 */

const byPath = new Map<string, OperationDeclaration>();
for (const operation of operationList) {
  for (const route of operationRoutes(operation)) byPath.set(route, operation);
}

/** The operation served at `<resource>/<name>` (or the widgets' alias), if any. */
export function operationAt(path: string): OperationDeclaration | undefined {
  return byPath.get(path.replace(/^\/+/, '').replace(/[?#].*$/, ''));
}

/** Why a successful answer disagrees with the operation's result model, or undefined when it agrees. */
export function resultMismatch(operation: OperationDeclaration, status: number, body: unknown): string | undefined {
  const path = `${operation.resource}/${operation.name}`;
  if (answersNoContent(operation)) {
    return status === 204 && body === undefined ? undefined : `${path} is void and must answer 204 with no body, answered ${status}`;
  }
  if (status !== 200) return `${path} must answer 200 on success, answered ${status}`;
  const parsed = operation.result.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(result)'}: ${issue.message}`);
    return `${path} answered a result its model refuses:\n  ${issues.join('\n  ')}\nanswer: ${JSON.stringify(body).slice(0, 2000)}`;
  }
  if (!isDeepStrictEqual(parsed.data, body)) {
    return `${path} answered fields its result model does not declare: ${undeclared(body, parsed.data).join(', ')}`;
  }
  return undefined;
}

/** Paths of the fields present in the answer but gone from the parsed value. */
function undeclared(answer: unknown, parsed: unknown, path = 'result'): string[] {
  if (Array.isArray(answer) && Array.isArray(parsed)) return answer.flatMap((item, index) => undeclared(item, parsed[index], `${path}.${index}`));
  if (answer && parsed && typeof answer === 'object' && typeof parsed === 'object') {
    return Object.entries(answer).flatMap(([name, value]) =>
      name in parsed ? undeclared(value, (parsed as Record<string, unknown>)[name], `${path}.${name}`) : [`${path}.${name}`],
    );
  }
  return isDeepStrictEqual(answer, parsed) ? [] : [path];
}

/** Throws when a successful answer of an operation path disagrees with its result model. */
export function checkResult(path: string, status: number, body: unknown): void {
  const operation = operationAt(path);
  if (!operation || status >= 300) return;
  const mismatch = resultMismatch(operation, status, body);
  if (mismatch) throw new Error(`Result check: ${mismatch}`);
}

/**
 * Watches every answer the server sends (also to callers that do not go through
 * `TestApi.call`, such as the published widgets' client) and collects the mismatches.
 */
export function watchResults(server: Server): { mismatches: string[] } {
  const mismatches: string[] = [];
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.end = ((...args: unknown[]) => {
      const [chunk] = args;
      const url = new URL(request.url ?? '/', 'http://localhost');
      // The operations answer JSON; the mails' unsubscribe link answers pages (functions/unsubscribe/).
      if (url.pathname.startsWith(`${BASE_PATH}/`) && url.pathname !== UNSUBSCRIBE_PATH) {
        const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
        try {
          checkResult(url.pathname.slice(BASE_PATH.length + 1), response.statusCode, text === '' ? undefined : JSON.parse(text));
        } catch (error) {
          mismatches.push(`${request.method} ${url.pathname}: ${(error as Error).message}`);
        }
      }
      return end(...args);
    }) as typeof response.end;
  });
  return { mismatches };
}
