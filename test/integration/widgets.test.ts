import { getFeelbackStore, removeFeelback, sendFeelback } from '@feelback/js';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';

/**
 * The published @feelback/js client, unchanged, against our local server: our
 * acceptance test by a client nobody here wrote. Outside a browser it keeps its
 * revoke tokens in memory, exactly as it would in localStorage.
 */
let api: TestApi;
let owner: AccountKeys;
let projectId: string;

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  owner = await createAccount('widgets');
  projectId = (await api.call('projects/create', [{ name: 'Widget site' }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

async function responsesOf(contentSetId: string, state: 'active' | 'revoked' | 'all' = 'all') {
  const { body } = await api.call('responses/list', [{ contentSetId, state, $size: 100 }], { key: owner.viewer });
  return body.items as { id: string; value: unknown; state: string }[];
}

describe.each([
  ['pulse', '+', '+', '+', '+'],
  ['yes-no', 'y', 'n', 'y', 'n'],
  ['reaction', 'heart', 'rocket', 'heart', 'rocket'],
  [
    'tagged-message',
    { tag: 'idea', message: 'Dark mode?' },
    { tag: 'error', message: 'Typo in step 2' },
    { tag: 'idea', message: 'Dark mode?' },
    { tag: 'error', message: 'Typo in step 2' },
  ],
])('@feelback/js on a %s set', (schema, firstValue, secondValue, storedFirst, storedSecond) => {
  it('sends, changes its mind (an edit) and removes', async () => {
    const contentSet = (await api.call('sets/create', [{ projectId, key: `w-${schema}`, schema, metadata: { name: schema } }], { key: owner.admin })).body;
    const target = { contentSetId: contentSet.id, key: `https://docs.example.com/${schema}?a=1&b=2` };

    await sendFeelback({ endpoint: api.baseUrl, ...target, value: firstValue as never, metadata: { $user: 'reader@example.com' } });
    const [created] = await responsesOf(contentSet.id);
    expect(created).toMatchObject({ value: storedFirst, state: 'active' });

    await sendFeelback({ endpoint: api.baseUrl, ...target, value: secondValue as never });
    const afterEdit = await responsesOf(contentSet.id);
    expect(afterEdit).toEqual([expect.objectContaining({ id: created.id, value: storedSecond, state: 'active' })]);

    const feelbackId = getFeelbackStore().getRevocable(target)?.feelbackId;
    expect(feelbackId).toBe(created.id);
    await removeFeelback({ endpoint: api.baseUrl, feelbackId: feelbackId! });
    expect(await responsesOf(contentSet.id)).toEqual([expect.objectContaining({ id: created.id, state: 'revoked' })]);
    expect(await responsesOf(contentSet.id, 'active')).toEqual([]);
  });
});
