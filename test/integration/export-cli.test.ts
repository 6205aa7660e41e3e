import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ANONYMOUS } from '../../functions/api/auth';
import { createResponse } from '../../functions/operations/response-collection';
import { exportResponses } from '../../functions/operations/response-export';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, createContentSet, pool, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { cliBundle } from '../support/cli-bundle';

/** bin/export.ts against the local HTTP server, as against a deployed stack (--url, --key). */
const ROOT = resolve(__dirname, '../..');
let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let dir: string;

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The CLI's code bundled once per run (cli-bundle.ts): tsx's start-up cost ~1.5 s of CPU a call.
  const bundle = await cliBundle('bin/export.ts');
  return new Promise((done) => {
    const child = spawn(process.execPath, [bundle, ...args], {
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

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('export-cli');
  dir = mkdtempSync(join(tmpdir(), 'export-cli-'));
  projectId = (await api.call('projects/create', [{ name: 'CLI' }], { key: owner.admin })).body.id;
  const setId = await createContentSet(api, owner.admin, projectId, 'message');
  const { store } = defaultStore();
  const write = (index: number) =>
    createResponse(
      store,
      ANONYMOUS,
      { contentSetId: setId, key: `page-${index % 4}`, value: `Réponse n°${index}, "quoted"\nsecond line`, profiling: { userId: index % 2 ? 'ann' : 'bob' } },
      { headers: {} },
      new Date(Date.UTC(2025, 0, 1) + index * 1000),
    );
  const indexes = Array.from({ length: 120 }, (_, index) => index);
  // The first four, one by one, create the four pages; the rest only add responses to them, a few at a time.
  for (const index of indexes.slice(0, 4)) await write(index);
  await pool(indexes.slice(4), 8, write);
  await api.drainStream();
}, 60_000);
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run export', () => {
  it('writes the whole export to --out, equal to the API export, with a summary', async () => {
    const out = join(dir, 'all.csv');
    const result = await run(['--url', api.baseUrl, '--key', owner.viewer, `--project=${projectId}`, '--out', out, '--stats']);
    expect(result.code).toBe(0);
    const { store } = defaultStore();
    const expected = await exportResponses(store, owner.accountId, { projectId, state: 'active', format: 'csv' });
    expect(readFileSync(out, 'utf8')).toBe(expected.data);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(result.stderr).toContain('Exported 120 rows');
    const stats = JSON.parse(result.stderr.trim().split('\n').at(-1)!);
    expect(stats).toMatchObject({ rows: 120, calls: 1 });
    expect(stats.peakRssMiB).toBeGreaterThan(0);
  });

  it('writes NDJSON of a person to stdout', async () => {
    const result = await run(['--url', api.baseUrl, '--key', owner.viewer, '--user', 'ann', '--format', 'ndjson', '--state', 'all']);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(60);
    expect(lines.every((line) => line.profiling.userId === 'ann')).toBe(true);
  });

  it('exits 2 on wrong usage and 1 on an API refusal, leaving no partial file', async () => {
    expect((await run(['--url', api.baseUrl, '--key', owner.viewer])).code).toBe(2);
    expect((await run(['--url', api.baseUrl, '--key', owner.viewer, `--project=${projectId}`, '--format', 'xlsx'])).code).toBe(2);
    expect((await run(['--url', api.baseUrl, `--project=${projectId}`])).code).toBe(2);
    const ambiguous = await run(['--url', api.baseUrl, '--key', owner.viewer, '--project', '-abc']);
    expect([ambiguous.code, ambiguous.stderr]).toEqual([2, expect.stringContaining('--project=<value>')]);
    const out = join(dir, 'refused.csv');
    const refused = await run(['--url', api.baseUrl, '--key', owner.viewer, '--project', 'AAAAAAAAAAAAAAAAAAAAAA', '--out', out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not-found');
    expect(existsSync(out) || existsSync(`${out}.partial`)).toBe(false);
    const unreachable = await run(['--url', 'http://127.0.0.1:9/v0', '--key', owner.viewer, `--project=${projectId}`]);
    expect(unreachable.code).toBe(1);
  }, 60_000);
});
