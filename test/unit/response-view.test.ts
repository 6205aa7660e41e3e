import type { ResponseImage } from '../../functions/domain/events';
import { responseView } from '../../functions/domain/response-view';

const stored: ResponseImage & { revokeTokenHash: string } = {
  id: 'r1',
  accountId: 'acc',
  projectId: 'prj',
  contentSetId: 'set',
  contentItemId: 'item',
  schema: 'yes-no',
  state: 'active',
  value: 'y',
  contribution: { option: 0, sentiment: 1 },
  revokeExpiresAt: '2026-03-18T10:05:00.000Z',
  revokeTokenHash: 'hash',
  createdAt: '2026-03-18T10:00:00.000Z',
  updatedAt: '2026-03-18T10:01:00.000Z',
};

describe('responseView', () => {
  it('shows what the API answers and webhooks post, never the contribution or the revoke token', () => {
    expect(responseView({ ...stored, context: { page: '/a' }, profiling: { userId: 'u1' } })).toEqual({
      id: 'r1',
      accountId: 'acc',
      projectId: 'prj',
      contentSetId: 'set',
      contentItemId: 'item',
      createdAt: '2026-03-18T10:00:00.000Z',
      updatedAt: '2026-03-18T10:01:00.000Z',
      state: 'active',
      value: 'y',
      context: { page: '/a' },
      profiling: { userId: 'u1' },
    });
  });

  it('leaves out context and profiling the response has not got', () => {
    const view = responseView(stored);
    expect(Object.keys(view)).not.toContain('context');
    expect(Object.keys(view)).not.toContain('profiling');
  });
});
