import fc from 'fast-check';
import { BoundedCache } from '../../functions/domain/bounded-cache';

describe('BoundedCache', () => {
  test('evicts the least recently used entry past its entry limit; a read makes an entry recent', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2, maxSize: 100, sizeOf: () => 1 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });

  test('evicts by size, replaces a key without counting it twice, and keeps nothing larger than the bound', () => {
    const cache = new BoundedCache<string, string>({ maxEntries: 10, maxSize: 10, sizeOf: (value) => value.length });
    cache.set('a', 'xxxx');
    cache.set('a', 'xxxxx');
    cache.set('b', 'yyyyy');
    expect([cache.get('a'), cache.get('b')]).toEqual(['xxxxx', 'yyyyy']);
    cache.set('c', 'z');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'yyyyy', 'z']);
    cache.set('huge', 'w'.repeat(11));
    expect([cache.get('huge'), cache.get('b')]).toEqual([undefined, 'yyyyy']);
  });

  test('forgets a key, or everything, and the room they took', () => {
    const cache = new BoundedCache<string, string>({ maxEntries: 10, maxSize: 10, sizeOf: (value) => value.length });
    cache.set('a', 'xxxxx');
    cache.set('b', 'yyyyy');
    cache.delete('a');
    cache.set('c', 'zzzzz');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'yyyyy', 'zzzzz']);
    cache.clear();
    cache.set('d', 'w'.repeat(10));
    expect([cache.size, cache.get('b'), cache.get('d')]).toEqual([1, undefined, 'w'.repeat(10)]);
  });

  test('agrees with a model of recency under any sequence of reads, writes and deletes', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 6 }), size: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 6 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const limits = { maxEntries: 3, maxSize: 8 };
        const cache = new BoundedCache<number, number>({ ...limits, sizeOf: (size) => size });
        let model: [number, number][] = [];
        for (const op of operations) {
          if (op.kind === 'get') {
            const found = model.find(([key]) => key === op.key);
            expect(cache.get(op.key)).toBe(found?.[1]);
            if (found) model = [...model.filter(([key]) => key !== op.key), found];
          } else if (op.kind === 'delete') {
            model = model.filter(([key]) => key !== op.key);
            cache.delete(op.key);
          } else {
            model = [...model.filter(([key]) => key !== op.key), [op.key, op.size]];
            while (model.length > limits.maxEntries || model.reduce((sum, [, size]) => sum + size, 0) > limits.maxSize) model = model.slice(1);
            cache.set(op.key, op.size);
          }
          expect(cache.size).toBe(model.length);
        }
      }),
    );
  });
});
