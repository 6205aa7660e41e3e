import { budgetedRead } from '../../functions/store/batch';

/** Query pages over the numbers 1..n, keeping those `keep` accepts; records each page's Limit. */
function pages(n: number, keep: (value: number) => boolean) {
  const limits: number[] = [];
  const readPage = async (limit: number, start: number | undefined) => {
    limits.push(limit);
    const from = (start ?? 0) + 1;
    const last = Math.min(n, from + limit - 1);
    const items: number[] = [];
    for (let value = from; value <= last; value++) if (keep(value)) items.push(value);
    return { items, next: last < n ? last : undefined };
  };
  return { readPage, limits };
}

describe('budgetedRead', () => {
  test('a dense read is one page of `count` (at least the minimum read)', async () => {
    const { readPage, limits } = pages(1000, () => true);
    expect(await budgetedRead(11, 100, readPage)).toEqual({ items: Array.from({ length: 100 }, (_, index) => index + 1) });
    expect(limits).toEqual([100]);
  });

  test('a sparse filter doubles the pages until it finds `count`', async () => {
    const { readPage, limits } = pages(100_000, (value) => value % 250 === 0);
    const read = await budgetedRead(3, 100, readPage, undefined, 10_000);
    // The last page may bring more than `count`: callers take what they asked for.
    expect(read).toEqual({ items: [250, 500, 750, 1000, 1250, 1500] });
    expect(limits).toEqual([100, 200, 400, 800]);
  });

  test('spends at most the budget, then says where it stopped', async () => {
    const { readPage, limits } = pages(100_000, (value) => value % 3000 === 0);
    const read = await budgetedRead(5, 100, readPage, undefined, 5000);
    expect(limits).toEqual([100, 200, 400, 800, 1600, 1900]);
    expect(limits.reduce((sum, limit) => sum + limit, 0)).toBe(5000);
    expect(read).toEqual({ items: [3000], resume: 5000 });
    // Reading on from there continues where it stopped.
    expect((await budgetedRead(1, 100, pages(100_000, (value) => value % 3000 === 0).readPage, read.resume, 5000)).items).toEqual([6000]);
  });

  test('the end of the index ends the read without a resume, found or not', async () => {
    expect(await budgetedRead(5, 100, pages(150, (value) => value === 120).readPage)).toEqual({ items: [120] });
    expect(await budgetedRead(5, 100, pages(0, () => true).readPage)).toEqual({ items: [] });
  });

  test('starts after `start`', async () => {
    expect(await budgetedRead(2, 1, pages(10, () => true).readPage, 7)).toEqual({ items: [8, 9] });
  });
});
