import type { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableClient } from '../../functions/store/dynamodb-clients';
import { getRawItems, sendUntilProcessed, UNPROCESSED_BACKOFF } from '../../functions/store/batch';

/** A backoff whose waits are recorded instead of slept; `random` 1 draws each wait at its ceiling. */
function recorded(random = () => 1, attempts = UNPROCESSED_BACKOFF.attempts) {
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  return { waits, backoff: { ...UNPROCESSED_BACKOFF, attempts, sleep, random } };
}

describe('sending the unprocessed part again', () => {
  it('waits longer before each new attempt, up to the cap, and stops when all is processed', async () => {
    const { waits, backoff } = recorded();
    const sent: number[][] = [];
    await sendUntilProcessed(
      'test',
      [1, 2, 3, 4],
      async (pending) => {
        sent.push(pending);
        return pending.slice(1);
      },
      backoff,
    );
    expect(sent).toEqual([[1, 2, 3, 4], [2, 3, 4], [3, 4], [4]]);
    expect(waits).toEqual([50, 100, 200]);
  });

  it('gives up with a clear error after the last attempt', async () => {
    const { waits, backoff } = recorded();
    let calls = 0;
    const send = async (pending: string[]) => {
      calls++;
      return pending;
    };
    await expect(sendUntilProcessed('BatchGetItem', ['a', 'b'], send, backoff)).rejects.toThrow(
      'BatchGetItem: 2 left unprocessed after 8 attempts (the table is at its throughput)',
    );
    expect(calls).toBe(8);
    expect(waits).toEqual([50, 100, 200, 400, 800, 1000, 1000]);
  });

  it('draws each wait at random below its ceiling (full jitter)', async () => {
    const { waits, backoff } = recorded(() => 0.5, 4);
    await expect(sendUntilProcessed('test', [1], async (pending) => pending, backoff)).rejects.toThrow(/after 4 attempts/);
    expect(waits).toEqual([25, 50, 100]);
  });

  it('sends nothing and waits for nothing when all is processed at once, or nothing was asked', async () => {
    const { waits, backoff } = recorded();
    const send = jest.fn(async () => []);
    await sendUntilProcessed('test', [1], send, backoff);
    await sendUntilProcessed('test', [], send, backoff);
    expect(send).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
  });
});

describe('getRawItems', () => {
  it('asks again for the keys BatchGetItem left unprocessed, after a wait, and answers in key order', async () => {
    const table = { a: { pk: 'a', sk: '1', v: 'A' }, b: { pk: 'b', sk: '1', v: 'B' } } as Record<string, Record<string, unknown>>;
    const requests: unknown[][] = [];
    const send = async (command: BatchGetCommand) => {
      const keys = command.input.RequestItems?.t?.Keys as { pk: string }[];
      requests.push(keys.map((key) => key.pk));
      const [first, ...rest] = keys;
      const item = table[first.pk];
      return { Responses: { t: item ? [item] : [] }, UnprocessedKeys: rest.length ? { t: { Keys: rest } } : undefined };
    };
    const store = { tableName: 't', documentClient: { send } } as unknown as TableClient;
    const { waits, backoff } = recorded();
    const keys = [
      { pk: 'b', sk: '1' },
      { pk: 'missing', sk: '1' },
      { pk: 'a', sk: '1' },
    ];
    expect(await getRawItems(store, keys, { backoff })).toEqual([table.b, undefined, table.a]);
    expect(requests).toEqual([['b', 'missing', 'a'], ['missing', 'a'], ['a']]);
    expect(waits).toEqual([50, 100]);
  });
});
