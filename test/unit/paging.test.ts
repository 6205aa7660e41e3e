import { walkIndex, type IndexSource } from '../../functions/operations/paging';

/**
 * An index of the numbers 1..n; positions are the last number taken, as text. A read
 * examines at most `budget` numbers, and says where it stopped when that ran out first.
 */
function numbers(n: number, keep: (value: number) => boolean = () => true, budget = Number.POSITIVE_INFINITY) {
  const reads: { start: string | null; count: number }[] = [];
  const source: IndexSource<number> = {
    read: async (start, count) => {
      reads.push({ start, count });
      const from = start === null ? 1 : Number(start) + 1;
      const found: number[] = [];
      let value = from;
      for (; value <= n && found.length < count; value++) {
        if (value - from >= budget) return { items: found, resume: String(value - 1) };
        if (keep(value)) found.push(value);
      }
      return { items: found };
    },
    positionOf: (value) => String(value),
  };
  return { source, reads };
}

async function collect(source: IndexSource<number>, options: { start?: string | null; limit: number; chunk?: number; budget?: number }) {
  const items: number[] = [];
  const result = await walkIndex(source, {
    start: options.start ?? null,
    limit: options.limit,
    chunk: options.chunk,
    visit: (offered) => {
      const room = options.budget === undefined ? offered.length : Math.max(0, Math.min(offered.length, options.budget - items.length));
      items.push(...offered.slice(0, room));
      return room;
    },
  });
  return { ...result, items };
}

describe('walkIndex', () => {
  it('takes up to the limit and knows exactly whether more exist', async () => {
    expect(await collect(numbers(10).source, { limit: 10 })).toMatchObject({ items: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], more: false, next: '10' });
    expect(await collect(numbers(11).source, { limit: 10 })).toMatchObject({ more: true, next: '10' });
    expect(await collect(numbers(3).source, { limit: 10 })).toMatchObject({ items: [1, 2, 3], more: false });
    expect(await collect(numbers(0).source, { limit: 10 })).toMatchObject({ items: [], more: false, next: null });
  });

  it('reads in chunks, one item more than it may take, resuming after the last taken', async () => {
    const { source, reads } = numbers(25);
    const result = await collect(source, { limit: 100, chunk: 10 });
    expect(result.items).toEqual(Array.from({ length: 25 }, (_, index) => index + 1));
    expect(reads).toEqual([
      { start: null, count: 11 },
      { start: '10', count: 11 },
      { start: '20', count: 11 },
    ]);
  });

  it('continues from a start position, and a walk of walks equals one walk', async () => {
    const { source } = numbers(37, (value) => value % 3 !== 0);
    const whole = await collect(source, { limit: 1000 });
    const pieces: number[] = [];
    let start: string | null = null;
    for (let page = 0; page < 20; page++) {
      const part = await collect(source, { start, limit: 4, chunk: 3 });
      pieces.push(...part.items);
      if (!part.more) break;
      start = part.next;
    }
    expect(pieces).toEqual(whole.items);
  });

  it('stops where the visitor stops, with more = true and the position after the last taken', async () => {
    const stopped = await collect(numbers(50).source, { limit: 40, chunk: 10, budget: 15 });
    expect(stopped).toMatchObject({ more: true, next: '15' });
    expect(stopped.items).toHaveLength(15);
    const atChunkEnd = await collect(numbers(50).source, { limit: 40, chunk: 10, budget: 10 });
    expect(atChunkEnd).toMatchObject({ more: true, next: '10' });
    const nothing = await collect(numbers(50).source, { start: '7', limit: 40, budget: 0 });
    expect(nothing).toMatchObject({ items: [], more: true, next: '7' });
  });

  it('ends the walk where a read spent its budget, with more = true, and a walk of walks still finds everything', async () => {
    const multiplesOf7 = (value: number) => value % 7 === 0;
    const { source } = numbers(100, multiplesOf7, 20);
    const first = await collect(source, { limit: 10, chunk: 5 });
    // The first read examines 1..20 and finds 7 and 14 only: the walk stops after 20.
    expect(first).toMatchObject({ items: [7, 14], more: true, next: '20', taken: 2 });
    const pieces: number[] = [...first.items];
    let start: string | null = first.next;
    for (let walk = 0; walk < 20 && start !== null; walk++) {
      const part = await collect(source, { start, limit: 10, chunk: 5 });
      pieces.push(...part.items);
      start = part.more ? part.next : null;
    }
    expect(pieces).toEqual(Array.from({ length: 14 }, (_, index) => 7 * (index + 1)));
    expect(start).toBeNull();
  });

  it('a read whose budget runs out on a match still ends exactly at the index end', async () => {
    const { source } = numbers(10, () => true, 4);
    expect(await collect(source, { limit: 3 })).toMatchObject({ items: [1, 2, 3], more: true, next: '3' });
    expect(await collect(source, { start: '8', limit: 5 })).toMatchObject({ items: [9, 10], more: false, next: '10' });
  });
});
