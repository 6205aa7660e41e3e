/**
 * The console's audit page names each target by its kind (console/src/lib/audit-targets.ts):
 * every audited operation and route says what its ids are, and a theme curation's record
 * tells its themes from the messages it moves.
 */
import { isAudited, operationPath } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { AUDITED_ROUTES, TARGET_KINDS, targetKinds } from '../../console/src/lib/audit-targets';

describe('audit targets in the console', () => {
  it('has the kinds of every audited operation and route, and of nothing else', () => {
    expect(Object.keys(TARGET_KINDS).sort()).toEqual([...operationList.filter(isAudited).map(operationPath), ...AUDITED_ROUTES].sort());
  });

  it("names a curation's set and record, then its themes and the messages it moves, as its record says", () => {
    const ids = ['set', 'curation', 'theme-a', 'theme-b', 'message-1', 'message-2'];
    expect(targetKinds('sets/curateThemes', ids, { kind: 'split', themeId: 'theme-a', newThemeId: 'theme-b', messageIds: ['message-1', 'message-2'] })).toEqual(
      ['set', 'curation', 'theme', 'theme', 'response', 'response'],
    );
    expect(targetKinds('sets/curateThemes', ['set', 'curation', 'message-1'], { kind: 'move', messageId: 'message-1', themeId: null })).toEqual([
      'set',
      'curation',
      'response',
    ]);
    expect(targetKinds('sets/curateThemes', ['set', 'curation', 'theme-a', 'theme-b'], { kind: 'merge', themeIds: ['theme-a'], into: 'theme-b' })).toEqual([
      'set',
      'curation',
      'theme',
      'theme',
    ]);
    // Before its record is read: the set and the record, the rest unknown.
    expect(targetKinds('sets/curateThemes', ['set', 'curation', 'theme-a'])).toEqual(['set', 'curation', 'unknown']);
    // A refused curation names its set only.
    expect(targetKinds('sets/curateThemes', ['set'])).toEqual(['set']);
  });
});
