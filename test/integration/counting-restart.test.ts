/**
 * Counting survives SIGKILL under load: `npm start` (bin/serve.ts, its own DynamoDB Local on
 * a data folder) is killed with SIGKILL while responses are being written and counted, then
 * started again on the same folder. The local reader resumes after the last batch the
 * consumer accepted, so records whose updates were applied before the kill come again; to
 * make that certain rather than a matter of when the kill lands, the counting reader's
 * position is deleted with the process (every record of the stream comes again). The
 * counters' watermarks refuse what was applied: the counts equal a recount of the stored
 * responses.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callApi, portOpen, startNpmStart, stopped, type NpmStart } from '../support/npm-start';
import { until } from '../support/webhook-receiver';

type Server = NpmStart;
const startServer = (dataDir: string) => startNpmStart(dataDir);
const call = callApi;

const folder = mkdtempSync(join(tmpdir(), 'counting-restart-'));
const servers: Server[] = [];

afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await stopped(server.child);
  }
  rmSync(folder, { recursive: true, force: true });
});

it('counts written before, during and after a SIGKILL equal a recount of the stored responses', async () => {
  const first = await startServer(folder);
  servers.push(first);
  const projectId = (await call(first, 'projects/create', [{ name: 'Kill' }])).id;
  const contentSetId = (await call(first, 'sets/create', [{ projectId, key: 'helpful', schema: 'yes-no', metadata: { name: 'Helpful?' } }])).id;

  // Eight writers over 20 pages; the server is killed while they write (some writes then fail).
  let written = 0;
  let killed = false;
  const writer = async (offset: number) => {
    for (let index = offset; !killed; index += 8) {
      try {
        await call(first, 'responses/create', [{ contentSetId, key: `page-${index % 20}`, value: index % 3 ? 'yes' : 'no' }], undefined);
        written++;
      } catch {
        return;
      }
    }
  };
  const writers = Array.from({ length: 8 }, (_, offset) => writer(offset));
  // Past a few of the counting consumer's batches (it reads every 3 s), then in the middle of the load.
  await until(async () => written >= 400, 120_000, 'responses written under load');
  killed = true;
  first.child.kill('SIGKILL');
  await Promise.all(writers);
  await stopped(first.child);
  await until(async () => !(await portOpen(first.dynamoPort)), 30_000, 'the first DynamoDB Local stopped');
  const position = join(folder, 'stream-position.counting.json');
  expect(existsSync(position)).toBe(true);
  rmSync(position);

  const second = await startServer(folder);
  servers.push(second);
  for (let index = 0; index < 40; index++) await call(second, 'responses/create', [{ contentSetId, key: `page-${index % 20}`, value: 'yes' }], undefined);

  // The recount: every stored response, by value.
  const stored: { value: unknown }[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(second, 'responses/list', [{ projectId, $size: 100, ...(cursor ? { cursor } : {}) }]);
    stored.push(...page.items);
    cursor = page.cursor ?? undefined;
  } while (cursor);
  // Stored values are normalised: 'y' or 'n'.
  const yes = stored.filter((response) => response.value === 'y').length;
  expect(stored.length).toBeGreaterThanOrEqual(440);

  let stats: { count: number; data: { values: number[] } } | undefined;
  // The consumer updates the set's and the project's counter items one after the other (one
  // conditional UpdateItem per item), so under load the project's may land a moment later.
  await until(
    async () => {
      stats = await call(second, 'sets/getStats', [contentSetId, { period: 'lifetime' }]);
      const project = await call(second, 'projects/getStats', [projectId, { period: 'lifetime' }]);
      return stats!.count >= stored.length && project.count >= stored.length;
    },
    60_000,
    'the restarted consumer caught up',
  );
  // Nothing counted twice, nothing missed: the set, its project and its pages.
  expect({ count: stats!.count, values: stats!.data.values }).toEqual({ count: stored.length, values: [yes, stored.length - yes] });
  expect((await call(second, 'projects/getStats', [projectId, { period: 'lifetime' }])).count).toBe(stored.length);
  expect((await call(second, 'projects/getStats', [projectId, { period: 'rolling7d' }])).count).toBe(stored.length);
}, 300_000);
