import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** Date.now() when the body had arrived. */
  at: number;
}

export type Reply = number | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** The answer to the n-th request (0-based); default 200. */
  reply: (request: ReceivedRequest, index: number) => Reply;
  /** The requests it has open now (from their start to the end of the answer). */
  open: number;
  /** The most requests it had open at once. */
  mostAtOnce: number;
  /** Until `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (a free port) that records every request and answers as told. */
export async function startReceiver(reply: Receiver['reply'] = () => 200, path = '/hook'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver = { requests, reply, open: 0, mostAtOnce: 0 } as Receiver;
  const server: Server = createServer((request, response) => {
    receiver.mostAtOnce = Math.max(receiver.mostAtOnce, ++receiver.open);
    response.on('close', () => receiver.open--);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = requests.push(received) - 1;
      const answer = receiver.reply(received, index);
      const { status, headers, body, delayMs } = typeof answer === 'number' ? { status: answer, headers: undefined, body: undefined, delayMs: 0 } : answer;
      setTimeout(() => {
        response.writeHead(status, headers);
        response.end(body ?? '');
      }, delayMs ?? 0);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.waitFor = async (count, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (requests.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver got ${requests.length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise((wait) => setTimeout(wait, 25));
    }
    return requests.slice(0, count);
  };
  receiver.close = () =>
    new Promise<void>((closed) => {
      server.close(() => closed());
      server.closeAllConnections();
    });
  return receiver;
}

/** Until `condition` holds (polled), or fails after `timeoutMs`. */
export async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 60_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}
