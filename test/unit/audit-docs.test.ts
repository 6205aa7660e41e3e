import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAudited, operationPath } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { AUDIT_CSV_COLUMNS } from '../../functions/domain/audit';
import { REPO_ROOT } from '../../lib/paths';

/** The first column's names of the table between `<!-- name -->` and `<!-- /name -->` in docs/api.md. */
function documented(name: string): string[] {
  const text = readFileSync(join(REPO_ROOT, 'docs/api.md'), 'utf8');
  const table = text.slice(text.indexOf(`<!-- ${name} -->`), text.indexOf(`<!-- /${name} -->`));
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
}

describe("docs/api.md's audit section says what the product has", () => {
  it('lists every audited operation of the registry, and no other', () => {
    expect(documented('audited-operations').sort()).toEqual(operationList.filter(isAudited).map(operationPath).sort());
  });

  it('lists every CSV column of audit/export, in order', () => {
    expect(documented('audit-csv-columns')).toEqual([...AUDIT_CSV_COLUMNS]);
  });
});
