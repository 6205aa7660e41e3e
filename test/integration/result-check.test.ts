import { operations } from '../../functions/api/registry';
import { loadOperationModules } from '../../local/operation-modules';
import { resultMismatch } from '../support/result-check';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';

/** The result check of test/support must catch a handler that drifts from its declaration. */

const project = {
  id: 'Z6b4Kx0Y7lQYxj2wVw8Fhg',
  name: 'Docs',
  accountId: 'Qk1Yt0VQ2rGQm3fI3Vv4xw',
  createdAt: '2026-11-22T09:16:58.534Z',
  updatedAt: '2026-11-22T09:16:58.534Z',
  state: 'active',
  metadata: {},
};

describe('resultMismatch', () => {
  it('accepts a result exactly as declared', () => {
    expect(resultMismatch(operations['projects/get'], 200, project)).toBeUndefined();
    expect(resultMismatch(operations['projects/lookup'], 200, [project, project])).toBeUndefined();
    expect(resultMismatch(operations['responses/remove'], 204, undefined)).toBeUndefined();
  });

  it('refuses a field the model does not declare, naming it', () => {
    expect(resultMismatch(operations['projects/get'], 200, { ...project, descriptionLower: 'docs' })).toMatch(/result\.descriptionLower/);
    expect(resultMismatch(operations['projects/lookup'], 200, [project, { ...project, metadata: { secret: 1 } }])).toMatch(/result\.1\.metadata\.secret/);
  });

  it('refuses a missing field, a wrong type or a wrong enum value', () => {
    const { name: _name, ...nameless } = project;
    expect(resultMismatch(operations['projects/get'], 200, nameless)).toMatch(/name/);
    expect(resultMismatch(operations['projects/get'], 200, { ...project, createdAt: 1 })).toMatch(/createdAt/);
    expect(resultMismatch(operations['projects/get'], 200, { ...project, state: 'inactive' })).toMatch(/state/);
    expect(resultMismatch(operations['sets/exists'], 200, 'yes')).toMatch(/refuses/);
  });

  it('refuses the wrong status for void and non-void operations', () => {
    expect(resultMismatch(operations['responses/remove'], 200, null)).toMatch(/204/);
    expect(resultMismatch(operations['projects/get'], 204, undefined)).toMatch(/200/);
  });
});

describe('the hook in TestApi', () => {
  let api: TestApi;
  let owner: AccountKeys;
  // The very object the local server runs (handler modules are loaded once, by require).
  const projectsGet = loadOperationModules().get('projects/get')!.operation;
  const original = projectsGet.handler;

  beforeAll(async () => {
    api = await startTestApi({ stream: false });
    owner = await createAccount('result-check');
  });
  afterEach(() => {
    (projectsGet as { handler: unknown }).handler = original;
  });
  afterAll(() => api.close());

  it('fails a call whose answer has a field the result model does not declare', async () => {
    const created = await api.call('projects/create', [{ name: 'Checked' }], { key: owner.admin });
    expect(created.status).toBe(200);
    // A handler that leaks an internal attribute: it still compiles (extra fields are allowed by TypeScript).
    (projectsGet as { handler: unknown }).handler = async (...args: Parameters<typeof original>) => ({
      ...((await original(...args)) as object),
      nameLower: 'checked',
    });
    await expect(api.call('projects/get', [created.body.id], { key: owner.viewer })).rejects.toThrow(/result\.nameLower/);
    // The server-side watch saw it too (it also covers clients other than call(), e.g. the widgets); close() would fail on it.
    expect(api.resultMismatches.splice(0)).toEqual([expect.stringMatching(/POST \/v0\/projects\/get: .*result\.nameLower/s)]);
    (projectsGet as { handler: unknown }).handler = original;
    expect((await api.call('projects/get', [created.body.id], { key: owner.viewer })).status).toBe(200);
    expect(api.resultMismatches).toEqual([]);
  });
});
