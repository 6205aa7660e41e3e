import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../lib/paths';

/** `npm install` on a fresh clone runs no dependency's install script and reports nothing to third parties (README). */
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));

test('package.json decides every dependency install script: none is allowed, Scarf analytics is off', () => {
  expect(manifest.allowScripts).toEqual({ '@parcel/watcher': false, '@scarf/scarf': false, '@swc/core': false, esbuild: false });
  expect(manifest.scarfSettings).toEqual({ enabled: false });
});

test('npm finds no installed package whose install script allowScripts leaves undecided', () => {
  const npm = spawnSync('npm', ['install-scripts', 'ls', '--json'], { cwd: REPO_ROOT, encoding: 'utf8' });
  // npm before 11.19 has no install-scripts command (and no allowScripts): the manifest test above still holds.
  if (npm.status !== 0 && /Unknown command/i.test(`${npm.stdout}${npm.stderr}`)) return;
  expect(npm.status).toBe(0);
  expect(JSON.parse(npm.stdout)).toEqual({ allowScripts: [] });
});
