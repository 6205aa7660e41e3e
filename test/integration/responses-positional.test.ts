import { createAccount, startTestApi, tableSnapshot, type TestApi } from '../support/api';

let api: TestApi;
afterAll(() => api.close());

it('reports errors of the positional form at the argument position', async () => {
  api = await startTestApi({ stream: false });
  const owner = await createAccount('positional');
  const projectId = (await api.call('projects/create', [{ name: 'P' }], { key: owner.admin })).body.id;
  const set = (await api.call('sets/create', [{ projectId, key: 'r', schema: 'rating', metadata: { name: 'Rating' } }], { key: owner.admin })).body;
  const before = await tableSnapshot();

  const badValue = await api.call('responses/create', [set.id, 'page', 9, null, null, null, null]);
  expect([badValue.status, badValue.body.data.fields]).toEqual([400, [{ path: 'args.2', message: expect.stringContaining('a rating is from 1 to 5') }]]);
  const badContext = await api.call('responses/create', [set.id, 'page', 3, { nested: { no: 1 } }]);
  expect(badContext.body.data.fields.map((field: { path: string }) => field.path)).toEqual(['args.3.nested']);
  const objectForm = await api.call('responses/create', [{ contentSetId: set.id, key: 'page', value: 9 }]);
  expect(objectForm.body.data.fields.map((field: { path: string }) => field.path)).toEqual(['args.0.value']);
  expect(await tableSnapshot()).toEqual(before);
});
