import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { createHmac } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';
import { describeValue } from '../../functions/domain/schemas';
import { discordText, DISCORD_CONTENT_LIMIT, slackText, SLACK_SECTION_LIMIT, type ChatEvent } from '../../functions/domain/webhook-chat';
import {
  DEFAULT_ENDPOINT_CONCURRENCY,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  endpointConcurrency,
  deliveryLifetimeSeconds,
  failedTooLong,
  isPreviewKey,
  nextAttemptAt,
  parseRetryAfter,
  retrySchedule,
  verdictOfStatus,
} from '../../functions/domain/webhooks';
import { STREAM_CONSUMERS } from '../../functions/stream/consumers';
import { matchesRecordFilter } from '../../functions/stream/events';
import { responseDeliveriesPartition } from '../../functions/store/webhooks';
import { generateSigningSecret, openSecret, sealSecret, useSecretsKey } from '../../functions/webhooks/secrets';
import { deliveryHeaders, describeAnswer, sendAttempt, signatureHeader } from '../../functions/webhooks/sender';
import { guardedLookup, isPublicAddress, urlProblem } from '../../functions/webhooks/targets';

describe("the console's live preview", () => {
  it('is the item keyed by the embed page of its own set, under any origin and base path', () => {
    const setId = 'AbCdEfGhIjKlMnOpQrStUv';
    expect(isPreviewKey(`http://localhost:3000/sets/${setId}/embed`, setId)).toBe(true);
    expect(isPreviewKey(`https://feedback.example.com/console/sets/${setId}/embed?x=1`, setId)).toBe(true);
    expect(isPreviewKey(`https://feedback.example.com/sets/${setId}/embed`, 'ZZZZZZZZZZZZZZZZZZZZZZ')).toBe(false);
    expect(isPreviewKey(`https://docs.example.com/sets/${setId}/embed/more`, setId)).toBe(false);
    expect(isPreviewKey(`/sets/${setId}/embed`, setId)).toBe(false);
    expect(isPreviewKey('https://docs.example.com/intro', setId)).toBe(false);
  });
});

describe('endpoint concurrency', () => {
  it('is 10 requests at once by default, or WEBHOOK_ENDPOINT_CONCURRENCY from 1 to 32', () => {
    expect(endpointConcurrency(undefined)).toBe(DEFAULT_ENDPOINT_CONCURRENCY);
    expect(endpointConcurrency(' ')).toBe(10);
    expect(endpointConcurrency('1')).toBe(1);
    expect(endpointConcurrency(' 32 ')).toBe(32);
    for (const refused of ['0', '33', '2.5', 'many', '-1']) expect(() => endpointConcurrency(refused)).toThrow(/WEBHOOK_ENDPOINT_CONCURRENCY/);
  });
});

describe('retry schedule', () => {
  it("is Standard Webhooks' by default, or WEBHOOK_RETRY_SCHEDULE", () => {
    expect(retrySchedule(undefined)).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    expect(retrySchedule(' 1, 2,4 ')).toEqual([1, 2, 4]);
    expect(() => retrySchedule('1,soon')).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it("waits the schedule's time after each failure, jittered by at most 10%, then gives up", () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    const schedule = DEFAULT_RETRY_SCHEDULE_SECONDS;
    for (let failures = 1; failures <= schedule.length; failures++) {
      for (const random of [0, 0.5, 0.999999]) {
        const wait = (nextAttemptAt(failures, now, { schedule, random: () => random })!.getTime() - now.getTime()) / 1000;
        expect(wait).toBeGreaterThanOrEqual(schedule[failures - 1] * 0.9 - 0.001);
        expect(wait).toBeLessThanOrEqual(schedule[failures - 1] * 1.1 + 0.001);
      }
    }
    expect(nextAttemptAt(1, now, { schedule, random: () => 0.5 })).toEqual(new Date(now.getTime() + 5000));
    expect(nextAttemptAt(schedule.length + 1, now, { schedule })).toBeUndefined();
    // Ten attempts over a little more than three days.
    expect(schedule.reduce((sum, wait) => sum + wait, 0) / 86400).toBeCloseTo(3.15, 1);
  });

  it('honours a longer Retry-After, in seconds or as a date', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:10:00 GMT', now)).toBe(600);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('99999999', now)).toBe(86400);
    const at = nextAttemptAt(1, now, { schedule: [5], random: () => 0.5, retryAfterSeconds: 120 })!;
    expect(at.getTime() - now.getTime()).toBe(120_000);
  });

  it('classifies answers: 2xx success, 410 gone, 429 and 5xx retried, the rest failed', () => {
    expect([200, 201, 204, 299].map(verdictOfStatus)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(verdictOfStatus(410)).toBe('gone');
    expect([429, 500, 502, 503, 504].map(verdictOfStatus)).toEqual(['retry', 'retry', 'retry', 'retry', 'retry']);
    expect([301, 302, 307, 400, 401, 404, 413].map(verdictOfStatus)).toEqual(Array(7).fill('failed'));
  });

  it("bounds a delivery's lifetime (its erasure pointer's TTL): every wait at its longest or a day's Retry-After, a day of slack, 30 days of retention", () => {
    const day = 24 * 3600;
    expect(deliveryLifetimeSeconds([1, 2, 4])).toBe(3 * day + day + 30 * day);
    // A step longer than a day counts with its jitter.
    expect(deliveryLifetimeSeconds([100_000])).toBe(110_000 + day + 30 * day);
    // Of the default schedule only the last step (24 h) exceeds a day's Retry-After.
    expect(deliveryLifetimeSeconds(DEFAULT_RETRY_SCHEDULE_SECONDS)).toBe(8 * day + 95_040 + day + 30 * day);
  });

  it('disables after 5 days of failing', () => {
    const now = new Date('2026-01-10T00:00:00.000Z');
    expect(failedTooLong(undefined, now)).toBe(false);
    expect(failedTooLong('2026-01-05T00:00:01.000Z', now)).toBe(false);
    expect(failedTooLong('2026-01-05T00:00:00.000Z', now)).toBe(true);
  });
});

describe('chat lines', () => {
  const set = { id: 'set', name: 'Was this helpful?', schema: 'yes-no' };
  const event = (overrides: Partial<ChatEvent['data']> = {}, type: ChatEvent['type'] = 'response.created'): ChatEvent => ({
    type,
    data: {
      response: { id: 'r1', value: 'y' },
      contentItem: { id: 'i1', key: '/docs', metadata: {} },
      contentSet: set,
      project: { id: 'p1', name: 'Site' },
      ...overrides,
    },
  });

  it('reads values as a person does', () => {
    expect(describeValue('yes-no', {}, 'y')).toBe('Yes');
    expect(describeValue('yes-no', {}, 'n')).toBe('No');
    expect(describeValue('pulse', {}, '+')).toBe('+1');
    expect(describeValue('reaction', {}, 'heart')).toBe('❤️ heart');
    expect(describeValue('reaction', {}, 'custom')).toBe('custom');
    expect(describeValue('rating', { min: 1, max: 5, step: 1 }, 4)).toBe('★ 4 of 5');
    expect(describeValue('message', {}, 'Great page')).toBe('“Great page”');
    expect(describeValue('tagged-message', {}, { tag: 'error', message: 'Typo' })).toBe('[error] “Typo”');
    expect(describeValue('tagged-message', {}, { tag: 'idea' })).toBe('[idea]');
  });

  it('one line per event type, with the set, the item title or key, and the value', () => {
    expect(slackText(event())).toBe('New response on *Was this helpful?* › /docs: Yes');
    expect(discordText(event({ contentItem: { id: 'i1', key: '/docs', metadata: { title: 'Docs' } } }))).toBe(
      'New response on **Was this helpful?** › Docs: Yes',
    );
    expect(slackText(event({ previous: { value: 'y' }, response: { id: 'r1', value: 'n' } }, 'response.updated'))).toBe(
      'Response changed on *Was this helpful?* › /docs: No (was Yes)',
    );
    expect(slackText(event({}, 'response.revoked'))).toBe('Response withdrawn on *Was this helpful?* › /docs: Yes');
    expect(slackText(event({}, 'response.deleted'))).toBe('A response was erased (response r1, content set set).');
    expect(slackText(event({ contentItem: { id: 'i1', key: 'k', metadata: { url: 'https://a.example/x' } } }, 'content.created'))).toBe(
      'New content item on *Was this helpful?*: k (https://a.example/x)',
    );
    expect(slackText(event({}, 'webhook.test'))).toMatch(/^Test event/);
  });

  it('escapes user text and stays within the platform limits, cutting the longest user text', () => {
    const long = { id: 'r1', value: { tag: 'idea', message: `<@U123> & *x* ${'é'.repeat(5000)}` } };
    const tagged = { ...set, schema: 'tagged-message', name: 'A'.repeat(100) };
    const slack = slackText(event({ response: long, contentSet: tagged, contentItem: { id: 'i', key: 'k'.repeat(1024), metadata: {} } }));
    expect(slack.length).toBeLessThanOrEqual(SLACK_SECTION_LIMIT);
    expect(slack.length).toBeGreaterThan(SLACK_SECTION_LIMIT - 10);
    expect(slack).toContain('&lt;@U123&gt; &amp;');
    expect(slack).toContain(`*${'A'.repeat(100)}*`);
    expect(slack).toContain(`${'k'.repeat(199)}…`);
    expect(slack.endsWith('…')).toBe(true);
    const discord = discordText(event({ response: long, contentSet: tagged }));
    expect(discord.length).toBeLessThanOrEqual(DISCORD_CONTENT_LIMIT);
    expect(discord).toContain('\\[idea\\] “<@U123\\> & \\*x\\*');
    // Whitespace (new lines) collapses: one line.
    expect(slackText(event({ response: { id: 'r', value: 'a\nb' }, contentSet: { ...set, schema: 'message' } }))).toContain('“a b”');
  });
});

describe('signatures', () => {
  it('are Standard Webhooks v1: base64 HMAC-SHA256 of "id.timestamp.body" keyed with the decoded secret, one per live secret', () => {
    const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = new Date('2026-02-03T04:05:06.789Z');
    const body = JSON.stringify({ type: 'webhook.test', timestamp: now.toISOString(), data: {} });
    const headers = deliveryHeaders({ messageId: 'msg_1', now, body, secrets: [current, previous] });
    const expected = (secret: string) =>
      createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
        .update(`msg_1.${Math.floor(now.getTime() / 1000)}.${body}`)
        .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected(current)} v1,${expected(previous)}`);
    expect(headers['webhook-timestamp']).toBe('1770091506');
    expect(signatureHeader('msg_1', now, body, [current])).toBe(`v1,${expected(current)}`);
  });
});

describe('secrets at rest', () => {
  it('seal with AES-256-GCM bound to the webhook id', async () => {
    useSecretsKey(Buffer.alloc(32, 1));
    const secret = generateSigningSecret();
    const sealed = await sealSecret(secret, 'hook-a');
    // Sealing's one layout (domain/sealing.ts): version byte 1 | IV | ciphertext | tag, base64url.
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(sealed, 'base64url')[0]).toBe(1);
    expect(Buffer.from(sealed, 'base64url')).toHaveLength(1 + 12 + Buffer.byteLength(secret) + 16);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(await openSecret(sealed, 'hook-a')).toBe(secret);
    await expect(openSecret(sealed, 'hook-b')).rejects.toThrow();
    useSecretsKey(Buffer.alloc(32, 2));
    await expect(openSecret(sealed, 'hook-a')).rejects.toThrow();
  });
});

type Subnet = [ipaddr.IPv4 | ipaddr.IPv6, number];
type SpecialRanges = Record<string, Subnet | Subnet[]>;

/**
 * One sample address (the subnet's first address + 1) from every subnet of every special
 * range ipaddr.js knows, read from its own tables: a range the library adds shows up here.
 */
function specialRangeSamples(kind: 'ipv4' | 'ipv6'): [string, string, string][] {
  const ranges = (kind === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6).prototype as unknown as { SpecialRanges: SpecialRanges };
  return Object.entries(ranges.SpecialRanges).flatMap(([name, entry]) => {
    const subnets = (Array.isArray(entry[0]) ? entry : [entry]) as Subnet[];
    return subnets.map(([network, bits]): [string, string, string] => {
      const bytes = network.toByteArray();
      if (bits < bytes.length * 8) bytes[bytes.length - 1] |= 1;
      return [name, `${network.toString()}/${bits}`, ipaddr.fromByteArray(bytes).toString()];
    });
  });
}

/**
 * The IPv6 transition and translation forms that carry an IPv4 address, written in hex as
 * URL parsing and DNS hand them over (ipaddr.js itself reads a dotted `::a.b.c.d` as `::ffff:a.b.c.d`).
 */
const EMBEDDINGS: [string, (v4: ipaddr.IPv4) => string][] = [
  ['IPv4-mapped ::ffff:0:0/96', (v4) => `::ffff:${low32(v4)}`],
  ['IPv4-compatible ::/96', (v4) => `::${low32(v4)}`],
  ['SIIT ::ffff:0:0:0/96', (v4) => `::ffff:0:${low32(v4)}`],
  ['NAT64 64:ff9b::/96', (v4) => `64:ff9b::${low32(v4)}`],
  ['local NAT64 64:ff9b:1::/48', (v4) => `64:ff9b:1::${low32(v4)}`],
  ['6to4 2002::/16', (v4) => `2002:${low32(v4)}::1`],
  ['Teredo 2001::/32', (v4) => `2001:0:4136:e378:8000:63bf:${low32(v4, 0xffff)}`],
];
function low32(v4: ipaddr.IPv4, xor = 0): string {
  const [a, b, c, d] = v4.octets;
  return [(a << 8) | b, (c << 8) | d].map((part) => (part ^ xor).toString(16)).join(':');
}

describe('SSRF guard', () => {
  const publicAddresses = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:81c::200e', '2001:4860:4860::8888'];

  it.each(publicAddresses)('admits the public unicast address %s', (address) => {
    expect(ipaddr.parse(address).range()).toBe('unicast');
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([...specialRangeSamples('ipv4'), ...specialRangeSamples('ipv6')])("refuses ipaddr.js's %s range (%s): %s", (_range, _subnet, sample) => {
    expect(ipaddr.parse(sample).range()).not.toBe('unicast');
    expect(isPublicAddress(sample)).toBe(false);
  });

  it('has samples of every range this guard is known to depend on', () => {
    const names = new Set([...specialRangeSamples('ipv4'), ...specialRangeSamples('ipv6')].map(([name]) => name));
    for (const name of ['private', 'loopback', 'linkLocal', 'carrierGradeNat', 'uniqueLocal', 'ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']) {
      expect(names).toContain(name);
    }
  });

  // Every IPv6 form that embeds an IPv4 address is refused whatever it embeds, a public address included.
  const embeddedSamples = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '192.168.1.1', '8.8.8.8', ...specialRangeSamples('ipv4').map(([, , sample]) => sample)];
  it.each(EMBEDDINGS.flatMap(([form, embed]) => embeddedSamples.map((v4): [string, string, string] => [form, v4, embed(ipaddr.IPv4.parse(v4))])))(
    'refuses the %s form of %s (%s)',
    (_form, _v4, address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  it.each(['::', '::1', '::127.0.0.1', '::8.8.8.8', '::1:2:3:4', '100::1', '5f00::1', '3fff::1', '4000::1', 'fe80::1%eth0', 'not-an-ip', ''])(
    'refuses %p, outside global unicast or not an address',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  it.each([
    'https://[::127.0.0.1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[::ffff:0:127.0.0.1]/',
    'https://[64:ff9b::10.0.0.1]/',
    'https://[64:ff9b:1::a9fe:a9fe]/',
    'https://[2002:7f00:1::]/',
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'https://[::ffff:8.8.8.8]/',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://017700000001/',
    'https://127.1/',
    'https://0xa9.0xfe.0xa9.0xfe/latest/meta-data/',
  ])('refuses the URL %s', (url) => {
    expect(urlProblem(url, false)).toMatch(/must not target a private, loopback or link-local address/);
  });

  it('checks the URL form: https only unless private targets are allowed, no credentials, no private literal', () => {
    expect(urlProblem('https://hooks.example.com/x', false)).toBeUndefined();
    expect(urlProblem('https://93.184.216.34/x', false)).toBeUndefined();
    expect(urlProblem('http://hooks.example.com/x', false)).toMatch(/https/);
    expect(urlProblem('http://127.0.0.1:3000/x', true)).toBeUndefined();
    expect(urlProblem('https://[::1]/x', false)).toMatch(/private/);
    expect(urlProblem('https://169.254.169.254/', false)).toMatch(/private/);
    expect(urlProblem('https://a:b@hooks.example.com/', false)).toMatch(/credentials/);
    expect(urlProblem('hooks.example.com', false)).toMatch(/absolute/);
    expect(urlProblem(`https://a.example/${'x'.repeat(2048)}`, false)).toMatch(/2048/);
  });

  it("refuses, inside the connection's own lookup, names that resolve to private addresses", async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((done) => guardedLookup('localhost', { all: true }, (failure) => done(failure)));
    expect(error?.code).toBe('ETARGETREFUSED');
    // At delivery: https to a name resolving to loopback is refused before any byte is sent.
    const result = await sendAttempt({
      url: 'https://localhost:9/hook',
      body: '{}',
      messageId: 'msg_x',
      secrets: [generateSigningSecret()],
      now: new Date(),
      allowPrivate: false,
    });
    expect(result).toEqual({ verdict: 'failed', error: expect.stringMatching(/non-public address .*refused/), durationMs: 0 });
    const literal = await sendAttempt({
      url: 'http://127.0.0.1:9/hook',
      body: '{}',
      messageId: 'msg_x',
      secrets: [generateSigningSecret()],
      now: new Date(),
      allowPrivate: false,
    });
    expect(literal).toMatchObject({ verdict: 'failed', error: expect.stringMatching(/^refused/) });
  });
});

describe('what an attempt reports of the answer', () => {
  it('from a public address: status, status text and the head of the body, or the redirect not followed', () => {
    expect(describeAnswer(500, 'Internal Server Error', ' database\n down ')).toBe('HTTP 500 Internal Server Error: database down');
    expect(describeAnswer(503, undefined, '')).toBe('HTTP 503');
    expect(describeAnswer(400, 'Bad Request', 'é'.repeat(300))).toBe(`HTTP 400 Bad Request: ${'é'.repeat(200)}`);
    expect(describeAnswer(302, 'Found', 'moved', 'https://elsewhere.example/')).toBe('HTTP 302: redirect to https://elsewhere.example/ not followed');
  });

  it('from a non-public address (private targets allowed): the status code only, no body, headers or timing', async () => {
    const server = createHttpServer((_request, response) => {
      response.writeHead(500, 'Internal Thing', { location: 'http://10.0.0.1/', 'retry-after': '1' });
      response.end('secret internal detail');
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const result = await sendAttempt({ url, body: '{}', messageId: 'msg_x', secrets: [generateSigningSecret()], now: new Date(), allowPrivate: true });
      expect(result).toEqual({ verdict: 'retry', statusCode: 500, error: 'HTTP 500', retryAfterSeconds: 1, durationMs: 0 });
    } finally {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    }
  });
});

describe("the webhooks consumer's record filter", () => {
  const declaration = STREAM_CONSUMERS.find((consumer) => consumer.name === 'webhooks')!;
  const record = (pk: string, sk: string, eventName: 'INSERT' | 'MODIFY' | 'REMOVE'): DynamoDBRecord => ({
    eventName,
    dynamodb: { Keys: marshall({ pk, sk }) as never },
  });

  it('takes every response record and content item creations, nothing else', () => {
    for (const name of ['INSERT', 'MODIFY', 'REMOVE'] as const) expect(matchesRecordFilter(record('response#r', 'response', name), declaration)).toBe(true);
    expect(matchesRecordFilter(record('content#c', 'content', 'INSERT'), declaration)).toBe(true);
    expect(matchesRecordFilter(record('content#c', 'content', 'MODIFY'), declaration)).toBe(false);
    expect(matchesRecordFilter(record('contentkey#s#h', 'contentkey', 'INSERT'), declaration)).toBe(false);
    expect(matchesRecordFilter(record('delivery#d', 'delivery', 'INSERT'), declaration)).toBe(false);
    // Erasure pointers are written by the consumer itself: neither consumer is invoked for them.
    for (const consumer of STREAM_CONSUMERS) {
      for (const name of ['INSERT', 'REMOVE'] as const) expect(matchesRecordFilter(record(responseDeliveriesPartition('r'), 'd', name), consumer)).toBe(false);
    }
    expect(matchesRecordFilter(record('webhook#w', 'webhook', 'MODIFY'), declaration)).toBe(false);
    // Verify with the library too, on a header set built by us.
    const secret = generateSigningSecret();
    const now = new Date();
    expect(new Webhook(secret).verify('{"a":1}', deliveryHeaders({ messageId: 'msg_2', now, body: '{"a":1}', secrets: [secret] }))).toEqual({ a: 1 });
  });
});
