import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ANONYMOUS } from '../../functions/api/auth';
import { createResponse } from '../../functions/operations/response-collection';
import { exportResponses } from '../../functions/operations/response-export';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, createContentSet, startTestApi, succeeded, type AccountKeys, type TestApi } from '../support/api';
import { cliBundle } from '../support/cli-bundle';

/**
 * bin/import.ts against the local HTTP server: files written by responses/export import
 * back to equal statistics (CSV into another set, NDJSON into the set after its responses
 * were erased), a second run adds nothing, --dry-run writes nothing, refusals are listed.
 */
const ROOT = resolve(__dirname, '../..');
const PERIODS = ['lifetime', 'year', 'rolling12m', 'month', 'rolling28d', 'week', 'rolling7d', 'day'];
const DAY = 24 * 3600 * 1000;
let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let sourceSet: string;
let dir: string;

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The CLI's code bundled once per run (cli-bundle.ts): tsx's start-up cost ~1.5 s of CPU a call.
  const bundle = await cliBundle('bin/import.ts');
  return new Promise((done) => {
    const child = spawn(process.execPath, [bundle, '--url', api.baseUrl, '--key', owner.admin, ...args], {
      cwd: ROOT,
      env: { ...process.env, FEEDBACK_API_URL: '', FEEDBACK_API_KEY: '', DATA_DIR: dir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The statistics of getStats in every period (not the ids and times of the answer), as one comparable object. */
async function allStats(setId: string) {
  const now = new Date().toISOString();
  return Object.fromEntries(
    await Promise.all(
      PERIODS.map(async (period) => {
        const { count, data, summary, referenceDate } = await succeeded(api, 'sets/getStats', [setId, { period, reference: now }], owner.viewer);
        return [period, { count, data, summary, referenceDate }];
      }),
    ),
  );
}

const MESSAGES = ['=HYPERLINK("x")', '-2+3', 'Très bien 👍🏽, "quoted"\r\nline', undefined];

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('import-cli');
  dir = mkdtempSync(join(tmpdir(), 'import-cli-'));
  projectId = (await succeeded(api, 'projects/create', [{ name: 'Import CLI' }], owner.admin)).id;
  sourceSet = await createContentSet(api, owner.admin, projectId, 'tagged-message');
  const { store } = defaultStore();
  const now = Date.now();
  // 48 responses on 12 days of the last year, 3 pages; some name a user and carry context.
  for (let index = 0; index < 48; index++) {
    const message = MESSAGES[index % MESSAGES.length];
    await createResponse(
      store,
      ANONYMOUS,
      {
        contentSetId: sourceSet,
        key: `=https://docs.example/page-${index % 3}`,
        value: { tag: ['idea', 'error', 'other'][index % 3], ...(message === undefined ? {} : { message }) },
        ...(index % 4 === 0 ? { context: { $user: `user-${index % 5}`, plan: '+pro' } } : {}),
      },
      { headers: {} },
      new Date(now - (index % 12) * 29 * DAY - index * 60_000),
    );
  }
  await api.drainStream();
}, 60_000);
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run import', () => {
  it('imports an exported CSV into another set to equal statistics; again, it adds nothing; --dry-run writes nothing', async () => {
    const { store } = defaultStore();
    const csv = join(dir, 'export.csv');
    writeFileSync(csv, (await exportResponses(store, owner.accountId, { contentSetId: sourceSet, state: 'all', format: 'csv' })).data);
    const target = await createContentSet(api, owner.admin, projectId, 'tagged-message');

    const dry = await run([`--set=${target}`, '--dry-run', csv]);
    expect([dry.code, dry.stderr]).toEqual([0, expect.stringContaining('Checked 48 rows of')]);
    expect(dry.stderr).toContain('48 to import, 0 refused');
    await api.drainStream({ rank: false });
    expect((await succeeded(api, 'sets/getStats', [target], owner.viewer)).count).toBe(0);

    const first = await run([`--set=${target}`, '--stats', csv]);
    expect([first.code, first.stderr]).toEqual([0, expect.stringContaining('Imported 48 rows into')]);
    expect(JSON.parse(first.stderr.trim().split('\n').at(-1)!)).toMatchObject({ rows: 48, imported: 48, duplicate: 0, refused: 0, calls: 1 });
    await api.drainStream();
    expect(await allStats(target)).toEqual(await allStats(sourceSet));

    const again = await run([`--set=${target}`, csv]);
    expect([again.code, again.stderr]).toEqual([0, expect.stringContaining('Imported 0 rows into')]);
    expect(again.stderr).toContain('48 duplicates');
  }, 60_000);

  it('imports an exported NDJSON back into its set after erasure, as it was', async () => {
    const { store } = defaultStore();
    const before = await allStats(sourceSet);
    const exported = (await exportResponses(store, owner.accountId, { contentSetId: sourceSet, state: 'all', format: 'ndjson' })).data;
    const file = join(dir, 'export.ndjson');
    writeFileSync(file, exported);
    const ids = exported
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id as string);
    await succeeded(api, 'responses/erase', [{ responseIds: ids }], owner.admin);
    await api.drainStream({ rank: false });
    expect((await succeeded(api, 'sets/getStats', [sourceSet], owner.viewer)).count).toBe(0);

    const result = await run([`--set=${sourceSet}`, file]);
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining('Imported 48 rows into')]);
    await api.drainStream();
    expect(await allStats(sourceSet)).toEqual(before);
  }, 60_000);

  it('lists refused rows by line and exits 1; exits 2 on wrong usage', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(
      file,
      [
        'key,tag,message,createdAt,importId',
        // Not in time order: the CLI sends line 3 before line 2, and still names each by its line.
        'page,idea,fine,2024-06-01T00:00:00Z,a',
        'page,nonsense,,2024-01-01T00:00:00Z,b',
        'page,idea,,2099-01-01T00:00:00Z,c',
        'page,idea,,2024-01-01T00:00:00Z,',
      ].join('\n'),
    );
    const target = await createContentSet(api, owner.admin, projectId, 'tagged-message');
    const result = await run([`--set=${target}`, file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Imported 1 rows into');
    expect(result.stderr).toContain('3 refused');
    expect(result.stderr).toMatch(/line 3: bad-request: .*value/);
    expect(result.stderr).toMatch(/line 4: bad-request: .*createdAt/);
    expect(result.stderr).toContain('line 5: no importId');
    expect(result.stderr).not.toContain('line 2:');
    expect((await run([file])).code).toBe(2);
    expect((await run([`--set=${target}`])).code).toBe(2);
  }, 60_000);
});
