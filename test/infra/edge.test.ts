/**
 * The per-visitor key on AWS (lib/edge.ts): the viewer-request CloudFront function of /v0/*
 * writes the visitor key (IPv4: the address; IPv6: its /64) into VISITOR_KEY_HEADER, over
 * whatever the client sent, and the web ACL's rate-based rule counts per value of that
 * header. The function's code is taken from the synthesized template and run (node:vm), as
 * CloudFront would; it must agree with functions/api/visitor-key.ts, the local server's key.
 * The same function answers CORS preflights, as the local server does (functions/api/cors.ts).
 * A small stack of its own (a stand-in RestApi with stage v0), like test/infra/console.test.ts.
 */
import { App, Stack } from 'aws-cdk-lib';
import { MockIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Template } from 'aws-cdk-lib/assertions';
import fc from 'fast-check';
import { runInNewContext } from 'node:vm';
import { operationPath, RESOURCE_ALIASES } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { visitorKey } from '../../functions/api/visitor-key';
import { preflightHeaders } from '../../functions/api/cors';
import {
  API_PATH_PATTERN,
  FORWARDED_HEADERS,
  ORIGIN_VERIFY_HEADER,
  PublicEdge,
  VIEWER_ADDRESS_HEADER,
  VISITOR_KEY_HEADER,
  viewerRequestCode,
} from '../../lib/edge';

type Json = any;
type Headers = Record<string, { value: string }>;

let resources: Record<string, Json>;
/** The deployed function's `handler`. */
let handler: (event: Json) => { headers: Headers };

beforeAll(() => {
  // CDK's built-in CloudFormation validation checks these constructs in the whole app (stack.test.ts).
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'Edge', { env: { region: 'eu-west-1' } });
  const restApi = new RestApi(stack, 'Api', { deployOptions: { stageName: 'v0' } });
  restApi.root.addResource('health').addMethod('GET', new MockIntegration());
  new PublicEdge(stack, 'Edge', {
    restApi,
    stageName: 'v0',
    operations: operationList,
    corsAllowedOrigins: ['*'],
    anonymousRateLimit: { limit: 300, windowSeconds: 300 },
    managedRules: 'block',
  });
  resources = Template.fromStack(stack).toJSON().Resources;
  const [distribution] = Object.values(resources).filter((resource) => resource.Type === 'AWS::CloudFront::Distribution');
  const api = distribution.Properties.DistributionConfig.CacheBehaviors.find((behavior: Json) => behavior.PathPattern === API_PATH_PATTERN);
  expect(api.FunctionAssociations).toHaveLength(1);
  expect(api.FunctionAssociations[0].EventType).toBe('viewer-request');
  const edgeFunction = resources[api.FunctionAssociations[0].FunctionARN['Fn::GetAtt'][0]].Properties;
  expect(edgeFunction.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
  handler = runInNewContext(`${edgeFunction.FunctionCode}; handler`);
});

/** A CloudFront Functions viewer-request event (the fields the function reads, and some it must leave alone). */
function viewerRequest(ip: string, headers: Headers = {}): Json {
  return {
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip },
    request: {
      method: 'POST',
      uri: '/v0/responses/create',
      querystring: {},
      headers: { host: { value: 'd111111abcdef8.cloudfront.net' }, ...headers },
      cookies: {},
    },
  };
}

const keyOf = (ip: string, headers?: Headers) => handler(viewerRequest(ip, headers)).headers[VISITOR_KEY_HEADER]?.value;

test('IPv4: the key is the address', () => {
  expect(keyOf('198.51.100.7')).toBe('198.51.100.7');
  expect(keyOf('198.51.100.8')).toBe('198.51.100.8');
});

test('IPv6: one key per /64 (two addresses of one /64 share it, another /64 has its own), in RFC 5952 text', () => {
  const first = keyOf('2001:db8:1:2:3:4:5:6');
  expect(first).toBe('2001:db8:1:2::/64');
  expect(keyOf('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(first);
  expect(keyOf('2001:0DB8:0001:0002::1')).toBe(first);
  expect(keyOf('2001:db8:1:3:3:4:5:6')).toBe('2001:db8:1:3::/64');
  expect(keyOf('2001:db8::1')).toBe('2001:db8::/64');
  expect(keyOf('::1')).toBe('::/64');
  expect(keyOf('fe80::1%eth0')).toBe('fe80::/64');
});

test('IPv4-mapped IPv6: the key is the IPv4 address', () => {
  expect(keyOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
  expect(keyOf('::ffff:c633:6407')).toBe('198.51.100.7');
});

test('whatever the client sent under the key, the address or the origin-verify header is replaced or dropped; other headers stay', () => {
  const request = handler(
    viewerRequest('2001:db8:1:2::7', {
      [VISITOR_KEY_HEADER]: { value: '203.0.113.1' },
      [VIEWER_ADDRESS_HEADER]: { value: '203.0.113.1' },
      [ORIGIN_VERIFY_HEADER]: { value: 'guess' },
      'x-forwarded-for': { value: '203.0.113.2' },
    }),
  );
  expect(request.headers[VISITOR_KEY_HEADER]).toEqual({ value: '2001:db8:1:2::/64' });
  expect(request.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '2001:db8:1:2::7' });
  expect(request.headers[ORIGIN_VERIFY_HEADER]).toBeUndefined();
  expect(request.headers['x-forwarded-for']).toEqual({ value: '203.0.113.2' });
  expect(request.headers.host).toEqual({ value: 'd111111abcdef8.cloudfront.net' });
});

test("the widgets' alias paths reach their operation's own path (the API has no route for the alias); other paths are left alone", () => {
  const uriOf = (uri: string, method = 'POST') => {
    const event = viewerRequest('198.51.100.7');
    return handler({ ...event, request: { ...event.request, method, uri, querystring: { $p: { value: '[]' } } } }) as Json;
  };
  for (const operation of operationList.filter((candidate) => RESOURCE_ALIASES[candidate.resource])) {
    const forwarded = uriOf(`/v0/${RESOURCE_ALIASES[operation.resource]}/${operation.name}`);
    expect(forwarded.uri).toBe(`/v0/${operationPath(operation)}`);
    expect(forwarded.querystring).toEqual({ $p: { value: '[]' } });
  }
  expect(uriOf('/v0/feelbacks/getAggregates', 'GET').uri).toBe('/v0/responses/getAggregates');
  for (const uri of ['/v0/responses/create', '/v0/projects/get', '/v0/openapi.json', '/feelbacks/create', '/v0/xfeelbacks/create', '/v0/feelbacks']) {
    expect(uriOf(uri).uri).toBe(uri);
  }
});

test("the function's key is the local server's (functions/api/visitor-key.ts), for any address in any notation", () => {
  fc.assert(
    fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => {
      expect(keyOf(ip)).toBe(visitorKey(ip));
    }),
    { numRuns: 2000 },
  );
});

test('the rate-based rule counts per value of the key header, which CloudFront forwards to the API', () => {
  const [acl] = Object.values(resources).filter((resource) => resource.Type === 'AWS::WAFv2::WebACL');
  expect(acl.Properties.Scope).toBe('REGIONAL');
  const rule = acl.Properties.Rules.find((candidate: Json) => candidate.Name === 'AnonymousWritesPerVisitor');
  const statement = rule.Statement.RateBasedStatement;
  expect(statement.AggregateKeyType).toBe('CUSTOM_KEYS');
  expect(statement.CustomKeys).toEqual([{ Header: { Name: VISITOR_KEY_HEADER, TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }]);
  expect(statement.ForwardedIPConfig).toBeUndefined();
  expect(FORWARDED_HEADERS).toContain(VISITOR_KEY_HEADER);
  // The rule after the origin check, which guarantees the request came through the function.
  expect(acl.Properties.Rules[0].Name).toBe('RefuseDirectCalls');
  expect(rule.Priority).toBeGreaterThan(0);
});

test("a CORS preflight is answered at the edge, 204 with the local server's preflight headers (functions/api/cors.ts), from any origin", () => {
  const lowercased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), { value }]));
  for (const uri of ['/v0/responses/create', '/v0/projects/get', '/v0/openapi.json']) {
    const event = viewerRequest('198.51.100.7', { origin: { value: 'https://any-site.example' } });
    const answer = handler({ ...event, request: { ...event.request, method: 'OPTIONS', uri } }) as Json;
    expect(answer.statusCode).toBe(204);
    expect(answer.headers).toEqual(lowercased(preflightHeaders('https://any-site.example', ['*'])));
    // An answer, not a request: nothing goes on to the API.
    expect(answer.uri).toBeUndefined();
  }
});

test('with a list of allowed origins, the preflight names an allowed origin and no other, as the local server does', () => {
  const code = viewerRequestCode(['https://a.example', 'https://b.example'], 'v0');
  const listed = runInNewContext(`${code}; handler`) as (event: Json) => Json;
  const answer = (origin?: string) =>
    listed({ viewer: { ip: '198.51.100.7' }, request: { method: 'OPTIONS', uri: '/v0/projects/get', headers: origin ? { origin: { value: origin } } : {} } });
  const expected = (origin?: string) =>
    Object.fromEntries(
      Object.entries(preflightHeaders(origin, ['https://a.example', 'https://b.example'])).map(([name, value]) => [name.toLowerCase(), { value }]),
    );
  expect(answer('https://b.example').headers).toEqual(expected('https://b.example'));
  expect(answer('https://b.example').headers['access-control-allow-origin']).toEqual({ value: 'https://b.example' });
  expect(answer('https://c.example').headers).toEqual(expected('https://c.example'));
  expect(answer('https://c.example').headers['access-control-allow-origin']).toBeUndefined();
  expect(answer().headers).toEqual(expected());
});
