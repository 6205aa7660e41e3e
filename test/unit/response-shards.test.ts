import { RESPONSE_LIST_SHARDS, RESPONSE_SHARDS, responseShard } from '../../functions/domain/response-shards';
import { newId } from '../../functions/domain/text';

describe('responseShard', () => {
  test('is a function of the id alone, one of the 8 shards', () => {
    expect(RESPONSE_LIST_SHARDS).toBe(8);
    expect(RESPONSE_SHARDS).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
    const id = newId();
    expect(responseShard(id)).toBe(responseShard(id));
    // Fixed values: changing the function would move every response's list entries.
    expect(['AAAAAAAAAAAAAAAAAAAAAA', 'R'.repeat(22), 'abcdefghijklmnopqrstuv'].map(responseShard)).toEqual(['3', '5', '2']);
  });

  test('spreads random ids evenly: each shard within 10% of an eighth over 80,000 ids', () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < 80_000; index++) {
      const shard = responseShard(newId());
      counts.set(shard, (counts.get(shard) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(RESPONSE_SHARDS);
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(1_000);
  });
});
