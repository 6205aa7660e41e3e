/**
 * Records every DynamoDB request a function makes, on the wire: each function under
 * rehearsal is given (as DYNAMODB_ENDPOINT) a recording proxy of its own in front of
 * DynamoDB Local. The proxy reads the API action (`X-Amz-Target`) and the request body,
 * forwards both unchanged and hands back DynamoDB Local's answer.
 *
 * Why on the wire and not as a middleware inside the bundle's SDK client: it sees exactly
 * the requests IAM authorizes (after the DocumentClient's translation, one per retry),
 * whichever SDK copy or client class the bundle uses (even an SDK bundled into the code
 * instead of the runtime's), with nothing patched inside the function's process.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Permission } from './cloud-assembly';

// DynamoDB's JSON protocol bodies.
type Json = any;

export interface RecordedCall {
  /** The API action, e.g. `TransactWriteItems`. */
  action: string;
  input: Json;
  /** DynamoDB Local's HTTP status. */
  status: number;
  /** DynamoDB Local's error type for a refused request (`...#ConditionalCheckFailedException`). */
  errorType?: string;
}

const TARGET_PREFIX = 'DynamoDB_20120810.';

function readBody(message: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });
}

export class RecordingProxy {
  readonly calls: RecordedCall[] = [];

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
  ) {}

  /** A proxy on a free local port forwarding to `upstream` (DynamoDB Local's endpoint). */
  static async start(upstream: string): Promise<RecordingProxy> {
    const target = new URL(upstream);
    let proxy: RecordingProxy | undefined;
    const server = createServer(async (incoming, outgoing) => {
      try {
        const body = await readBody(incoming);
        const targetHeader = String(incoming.headers['x-amz-target'] ?? '');
        const action = targetHeader.startsWith(TARGET_PREFIX) ? targetHeader.slice(TARGET_PREFIX.length) : `unknown(${targetHeader})`;
        let input: Json;
        try {
          input = JSON.parse(body.toString('utf8') || '{}');
        } catch {
          input = { unparsable: body.toString('utf8').slice(0, 200) };
        }
        const upstreamRequest = httpRequest({
          hostname: target.hostname,
          port: target.port,
          path: incoming.url,
          method: incoming.method,
          headers: { ...incoming.headers, host: target.host },
        });
        upstreamRequest.on('response', async (answer) => {
          const answerBody = await readBody(answer);
          let errorType: string | undefined;
          if ((answer.statusCode ?? 500) >= 400) {
            try {
              errorType = JSON.parse(answerBody.toString('utf8')).__type;
            } catch {
              errorType = 'unparsable error';
            }
          }
          proxy?.calls.push({ action, input, status: answer.statusCode ?? 0, errorType });
          outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
          outgoing.end(answerBody);
        });
        upstreamRequest.on('error', (error) => {
          outgoing.writeHead(502);
          outgoing.end(String(error));
        });
        upstreamRequest.end(body);
      } catch (error) {
        outgoing.writeHead(500);
        outgoing.end(String(error));
      }
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
    proxy = new RecordingProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  async close(): Promise<void> {
    await new Promise<void>((closed) => {
      this.server.close(() => closed());
      this.server.closeAllConnections();
    });
  }
}

/** The IAM action of each item kind of TransactWriteItems. */
const TRANSACT_WRITE_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
};

/** Words of DynamoDB expressions that are not attribute names. */
const EXPRESSION_WORDS = new Set(
  ['SET', 'REMOVE', 'ADD', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN']
    .concat(['attribute_exists', 'attribute_not_exists', 'attribute_type', 'begins_with', 'contains', 'size', 'if_not_exists', 'list_append'])
    .map((word) => word.toLowerCase()),
);

/** The top-level attribute names an expression mentions, `#aliases` resolved. */
function expressionAttributes(expression: string | undefined, names: Record<string, string> | undefined): string[] {
  if (!expression) return [];
  const attributes: string[] = [];
  // Drop `:values` first so their names are not read as attributes.
  for (const [token] of expression.replace(/:[A-Za-z0-9_]+/g, ' ').matchAll(/#?[A-Za-z_][A-Za-z0-9_]*/g)) {
    if (token.startsWith('#')) attributes.push(names?.[token] ?? token);
    else if (!EXPRESSION_WORDS.has(token.toLowerCase())) attributes.push(token);
  }
  return attributes;
}

/**
 * The values of the IAM condition keys DynamoDB sets for a one-item request
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html):
 * the partition key (`dynamodb:LeadingKeys`), the attributes it names or writes
 * (`dynamodb:Attributes`, key attributes included) and `dynamodb:ReturnValues` (an empty
 * list when the request sets none).
 */
function itemContext(request: Json): Record<string, string[]> {
  const key = request.Key ?? request.Item ?? {};
  const leading = Object.values<Json>(key)[0];
  const names: Record<string, string> | undefined = request.ExpressionAttributeNames;
  const attributes = new Set<string>([
    ...Object.keys(key),
    ...expressionAttributes(request.UpdateExpression, names),
    ...expressionAttributes(request.ConditionExpression, names),
    ...expressionAttributes(request.ProjectionExpression, names),
  ]);
  return {
    'dynamodb:LeadingKeys': leading?.S !== undefined ? [leading.S] : [],
    'dynamodb:Attributes': [...attributes],
    'dynamodb:ReturnValues': request.ReturnValues ? [request.ReturnValues] : [],
  };
}

/**
 * The IAM permissions (action on resource) one DynamoDB request needs. Transactions have
 * no IAM action of their own: TransactWriteItems is authorized item by item by PutItem /
 * UpdateItem / DeleteItem / ConditionCheckItem, TransactGetItems by GetItem. A Query or
 * Scan of an index needs the action on `<table arn>/index/<name>`. Batch operations need
 * their own action on every table they touch.
 */
export function requiredPermissions(call: RecordedCall, tableArn: (tableName: string) => string): Permission[] {
  const { action, input } = call;
  const table = (name: string) => (name.startsWith('arn:') ? name : tableArn(name));
  switch (action) {
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).map((item: Json) => {
        const [kind, request] = Object.entries<Json>(item)[0];
        const iamAction = TRANSACT_WRITE_ACTIONS[kind];
        if (!iamAction) throw new Error(`TransactWriteItems item of unknown kind ${kind}`);
        return { action: iamAction, resource: table(request.TableName), context: itemContext(request) };
      });
    case 'TransactGetItems':
      return (input.TransactItems ?? []).map((item: Json) => ({ action: 'dynamodb:GetItem', resource: table(item.Get.TableName) }));
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys(input.RequestItems ?? {}).map((name) => ({ action: `dynamodb:${action}`, resource: table(name) }));
    default: {
      if (typeof input.TableName !== 'string') {
        // PartiQL (ExecuteStatement, ...) and account-level actions: the action, on the account.
        return [{ action: `dynamodb:${action}`, resource: '*' }];
      }
      const resource = input.IndexName ? `${table(input.TableName)}/index/${input.IndexName}` : table(input.TableName);
      const oneItem = input.Key !== undefined || input.Item !== undefined;
      return [{ action: `dynamodb:${action}`, resource, ...(oneItem ? { context: itemContext(input) } : {}) }];
    }
  }
}
