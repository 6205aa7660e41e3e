import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPERATION_NAMES } from '../../functions/api/registry';
import { buildClient, CLIENT_ROOT } from '../../scripts/build-client';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';

/**
 * The client as published: built (ESM + .d.ts, no dependency), imported by its package
 * name from plain Node, and the README's example run against the local server.
 */

/** A child process, run asynchronously: the API it calls lives in this process. */
function run(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: CLIENT_ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

let api: TestApi;
let owner: AccountKeys;

beforeAll(async () => {
  await buildClient();
  api = await startTestApi();
  owner = await createAccount('client-build');
}, 120_000);
afterAll(() => api?.close());

const dist = (file: string) => readFileSync(resolve(CLIENT_ROOT, 'dist', file), 'utf8');

describe('the built client', () => {
  it('is one ES module without imports, with declarations that import nothing but their own files', () => {
    const bundle = dist('index.js');
    expect(bundle).toMatch(/^export \{/m);
    expect(bundle).not.toMatch(/^\s*import\s|\brequire\(|import\(/m);
    const manifest = JSON.parse(readFileSync(resolve(CLIENT_ROOT, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@feedback-service/client', type: 'module' });
    expect(manifest.dependencies).toBeUndefined();
    for (const file of ['index.d.ts', 'generated.d.ts']) {
      const imports = [...dist(file).matchAll(/from '([^']+)'/g)].map((match) => match[1]);
      expect(imports.every((specifier) => specifier.startsWith('./'))).toBe(true);
    }
  });

  it('loads by its package name in plain Node (ES module) and calls the API', async () => {
    const script = `
      import { createClient, ApiError, OPERATIONS } from '@feedback-service/client';
      const client = createClient({ baseUrl: process.env.BASE_URL });
      const failure = await client.projects.get('x').catch((error) => error);
      console.log(JSON.stringify({ operations: Object.keys(OPERATIONS).length, isApiError: failure instanceof ApiError, error: failure.error, status: failure.status }));`;
    const node = await run(['--input-type=module', '-e', script], { BASE_URL: api.baseUrl });
    expect(node.stderr).toBe('');
    expect(JSON.parse(node.stdout)).toEqual({ operations: OPERATION_NAMES.length, isApiError: true, error: 'unauthorized', status: 401 });
  });

  it("runs the README's example (examples/weekly-report.ts): top content items of the week and a set's stats", async () => {
    const project = (await api.call('projects/create', [{ name: 'Report' }], { key: owner.admin })).body;
    const setId = await createContentSet(api, owner.admin, project.id, 'yes-no');
    const answer = (key: string, value: string) => api.call('responses/create', [{ contentSetId: setId, key, value }]);
    await api.call('contents/create', [{ contentSetId: setId, key: 'https://example.com/guide', metadata: { title: 'The guide' } }], { key: owner.admin });
    for (const value of ['y', 'y', 'n']) await answer('https://example.com/guide', value);
    await answer('https://example.com/faq', 'y');
    await api.drainStream();

    const example = await run(['--import', 'tsx', 'examples/weekly-report.ts'], {
      FEEDBACK_BASE_URL: api.baseUrl,
      FEEDBACK_API_KEY: owner.viewer,
      FEEDBACK_SET_ID: setId,
    });
    expect([example.status, example.stderr]).toEqual([0, '']);
    expect(example.stdout.split('\n').filter(Boolean)).toEqual([
      'Most answered pages, last 7 days:',
      '  1. The guide (3 responses; 2 yes, 1 no)',
      '  2. https://example.com/faq (1 responses; 1 yes, 0 no)',
      `Set "yes-no" (yes-no) this week: 4 responses; 3 yes, 1 no`,
    ]);
  });
});
