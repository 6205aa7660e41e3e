/**
 * cfn-lint (AWS's CloudFormation linter) over every template of the run's shared cloud
 * assembly (test/support/shared-assembly.ts): the stack's own and its nested stacks'.
 * The stack passes with no error and no warning; a rule that is wrong for this stack is
 * turned off in .cfnlintrc (read from the repository root), with the reason beside it.
 *
 * cfn-lint is a Python program (`pip install cfn-lint`), not an npm package: where it is
 * not installed this file says so in one line and skips, except under CI=true, where it fails.
 * One process lints all the files: its start (loading the resource specifications) is most of its time.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from '../../lib/paths';
import { assemblyTemplates } from '../support/assembly-templates';
import { sharedCloudAssembly } from '../support/shared-assembly';

/** A template with one known finding (W3005), linted in the same run: a run that reports nothing for it is broken, not clean. */
const FIXTURE = path.join(__dirname, 'fixtures', 'redundant-depends-on.template.json');

interface Finding {
  Filename: string;
  Level: 'Error' | 'Warning' | 'Informational';
  Message: string;
  Rule: { Id: string };
  Location: { Path: (string | number)[] | null; Start: { LineNumber: number } };
}

function installedVersion(): string | undefined {
  const result = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** cfn-lint's findings in `files`; its exit status is a bit mask of the levels found (2 error, 4 warning, 8 informational), 1 a failure of its own. */
function lint(files: string[]): Promise<Finding[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('cfn-lint', ['--format', 'json', '--', ...files], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (status === null || status & 1) {
        reject(new Error(`cfn-lint failed (status ${status}): ${Buffer.concat(err).toString('utf8')}${stdout}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as Finding[]);
      } catch {
        reject(new Error(`cfn-lint's output is not JSON (status ${status}): ${stdout.slice(0, 2000)}`));
      }
    });
  });
}

const describeLine = (finding: Finding) =>
  `${finding.Level} ${finding.Rule.Id} ${path.basename(finding.Filename)}:${finding.Location.Start.LineNumber} ${(finding.Location.Path ?? []).join('/')}: ${finding.Message}`;

const version = installedVersion();
const required = process.env.CI === 'true';
if (!version) {
  process.stdout.write(
    `\nNOTICE: cfn-lint not found (pip install cfn-lint): the templates are not linted${required ? ', and CI=true needs them linted' : ''}\n`,
  );
}

(version || required ? describe : describe.skip)('cfn-lint', () => {
  test('is installed', () => {
    expect(version).toMatch(/^cfn-lint \d/);
  });

  test('every template of the synthesized app: no error, no warning', async () => {
    const { parent, nested } = assemblyTemplates(await sharedCloudAssembly());
    const templates = [parent, ...nested];
    const findings = await lint([FIXTURE, ...templates]);

    const inFile = (file: string) => findings.filter((finding) => path.resolve(REPO_ROOT, finding.Filename) === file);
    expect(inFile(FIXTURE).map((finding) => finding.Rule.Id)).toContain('W3005');

    const problems = templates.flatMap(inFile).filter((finding) => finding.Level === 'Error' || finding.Level === 'Warning');
    expect(problems.map(describeLine)).toEqual([]);
    // Nothing reported about a file that was not asked for.
    expect(findings.filter((finding) => ![FIXTURE, ...templates].includes(path.resolve(REPO_ROOT, finding.Filename)))).toEqual([]);
  }, 600_000);
});
