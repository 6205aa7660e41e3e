/**
 * Runs `work` on every item, at most `concurrency` at a time. Ten lines instead of a
 * dependency: the jobs need nothing more (no ordering of results, no cancellation).
 */
export async function inParallel<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
