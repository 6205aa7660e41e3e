/**
 * The events AWS would hand the functions, built locally: API Gateway REST proxy events,
 * EventBridge scheduled events, SNS notifications, and DynamoDB stream batches read from DynamoDB Local's
 * real stream, filtered the way Lambda's event filtering does.
 */
import { type DynamoDBStreamsClient, DescribeStreamCommand, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import type { APIGatewayProxyEvent, DynamoDBRecord, ScheduledEvent, SNSEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { lambdaRecord } from '../../local/stream-reader';

// Event filter patterns and attribute values are untyped JSON.
type Json = any;

export interface ApiRequest {
  httpMethod: 'GET' | 'POST';
  /** Resource path without the leading slash, e.g. `projects/create`. */
  path: string;
  stage: string;
  headers: Record<string, string>;
  /** The query parameters (a GET's `$p`, the unsubscribe link's `token`). */
  query?: Record<string, string>;
  body?: string;
}

/** An SNS notification of one message, as SNS invokes a subscribed function with it. */
export function snsEvent(topicArn: string, subscriptionArn: string, message: string, time = new Date()): SNSEvent {
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: subscriptionArn,
        Sns: {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: topicArn,
          Subject: '',
          Message: message,
          Timestamp: time.toISOString(),
          SignatureVersion: '1',
          Signature: 'rehearsal',
          SigningCertUrl: 'https://sns.local.amazonaws.com/rehearsal.pem',
          UnsubscribeUrl: 'https://sns.local.amazonaws.com/?Action=Unsubscribe',
          MessageAttributes: {},
        },
      },
    ],
  };
}

/** An API Gateway REST API proxy-integration event (payload 1.0), as Lambda receives it. */
export function apiGatewayProxyEvent(request: ApiRequest): APIGatewayProxyEvent {
  const now = new Date();
  const requestId = randomUUID();
  const sourceIp = '203.0.113.7';
  const headers = {
    Host: 'rehearsal.execute-api.local.amazonaws.com',
    'X-Forwarded-For': sourceIp,
    'X-Forwarded-Proto': 'https',
    'X-Forwarded-Port': '443',
    // Edge-optimized REST APIs (the default) are fronted by CloudFront, which adds these.
    'CloudFront-Viewer-Country': 'DE',
    'CloudFront-Is-Desktop-Viewer': 'true',
    ...request.headers,
  };
  const query = request.query && Object.keys(request.query).length > 0 ? request.query : null;
  const resourcePath = `/${request.path}`;
  return {
    resource: resourcePath,
    path: resourcePath,
    httpMethod: request.httpMethod,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: query,
    multiValueQueryStringParameters: query && Object.fromEntries(Object.entries(query).map(([name, value]) => [name, [value]])),
    pathParameters: null,
    stageVariables: null,
    body: request.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'rehearsal',
      authorizer: null,
      domainName: headers.Host,
      domainPrefix: 'rehearsal',
      extendedRequestId: requestId,
      httpMethod: request.httpMethod,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp,
        user: null,
        userAgent: request.headers['User-Agent'] ?? null,
        userArn: null,
      },
      path: `/${request.stage}${resourcePath}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: now.toUTCString(),
      requestTimeEpoch: now.getTime(),
      resourceId: 'rehearsal',
      resourcePath,
      stage: request.stage,
    },
  };
}

/** What an EventBridge schedule delivers to its Lambda target. */
export function scheduledEvent(ruleArn: string, region: string, account: string, time = new Date()): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account,
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [ruleArn],
    detail: {},
  };
}

// ---------------------------------------------------------------- DynamoDB streams

/**
 * Every record of a table's stream, shard by shard from the trim horizon, in the shape of
 * Lambda's DynamoDB event source.
 */
export async function readStream(streams: DynamoDBStreamsClient, streamArn: string): Promise<{ shardId: string; records: DynamoDBRecord[] }[]> {
  const description = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  const shards: { shardId: string; records: DynamoDBRecord[] }[] = [];
  for (const shard of description.StreamDescription?.Shards ?? []) {
    const records: DynamoDBRecord[] = [];
    let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' })))
      .ShardIterator;
    for (let page = 0; iterator && page < 10_000; page++) {
      const answer = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      records.push(...(answer.Records ?? []).map((record) => lambdaRecord(record, streamArn)));
      // An open shard always hands out a next iterator: an empty page means "caught up".
      if ((answer.Records ?? []).length === 0) break;
      iterator = answer.NextShardIterator;
    }
    shards.push({ shardId: shard.ShardId!, records });
  }
  return shards;
}

// ---------------------------------------------------------------- event filtering

function matchesOne(matcher: Json, value: Json, present: boolean): boolean {
  if (matcher === null || typeof matcher !== 'object') {
    return present && (typeof matcher === 'number' ? Number(value) === matcher : value === matcher);
  }
  const [operator, operand] = Object.entries<Json>(matcher)[0] ?? [];
  switch (operator) {
    case 'exists':
      return present === operand;
    case 'prefix':
      return present && typeof value === 'string' && value.startsWith(operand);
    case 'suffix':
      return present && typeof value === 'string' && value.endsWith(operand);
    case 'equals-ignore-case':
      return present && typeof value === 'string' && value.toLowerCase() === String(operand).toLowerCase();
    case 'anything-but':
      if (!present) return false;
      if (operand && typeof operand === 'object' && !Array.isArray(operand)) return !matchesOne(operand, value, present);
      return !(Array.isArray(operand) ? operand : [operand]).some((excluded) => matchesOne(excluded, value, present));
    case 'numeric': {
      if (!present || !Number.isFinite(Number(value))) return false;
      const number = Number(value);
      const tests: Record<string, (bound: number) => boolean> = {
        '=': (bound) => number === bound,
        '<': (bound) => number < bound,
        '<=': (bound) => number <= bound,
        '>': (bound) => number > bound,
        '>=': (bound) => number >= bound,
      };
      for (let index = 0; index < operand.length; index += 2) if (!tests[operand[index]]?.(operand[index + 1])) return false;
      return true;
    }
    default:
      throw new Error(`event filter operator ${JSON.stringify(matcher)} is not supported by the rehearsal`);
  }
}

/** Lambda event filtering: every field of the pattern must match (arrays: any of the matchers). */
export function matchesPattern(pattern: Json, value: Json): boolean {
  return Object.entries<Json>(pattern).every(([name, expected]) => {
    const present = value !== null && typeof value === 'object' && name in value;
    const actual = present ? value[name] : undefined;
    if (Array.isArray(expected)) {
      const candidates = Array.isArray(actual) ? actual : [actual];
      return expected.some((matcher) => candidates.some((candidate) => matchesOne(matcher, candidate, present)));
    }
    return present && matchesPattern(expected, actual);
  });
}

/** A record passes when there are no filters or any filter matches it. */
export function passesFilters(patterns: Json[], record: DynamoDBRecord): boolean {
  return patterns.length === 0 || patterns.some((pattern) => matchesPattern(pattern, record));
}
