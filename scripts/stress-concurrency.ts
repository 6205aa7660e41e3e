/**
 * `npm run stress:concurrency`: runs the concurrency tests of the ranker, the counters, the
 * alerts and the screening again and again, and reports how often each passed. Not part of
 * `npm test`: a race that fails once in fifty runs is found by repeating, not by one run.
 *
 *   npm run stress:concurrency                 # 50 times
 *   npm run stress:concurrency -- --times 10 --out .tmp/stress.json
 *   npm run stress:concurrency -- --list       # which tests, without running them
 *
 * Which tests: each area names its test files and a pattern of test titles. The titles are
 * read from the files at every start (calls of `it` and `test` with a literal title), so a
 * test added later under a matching title is repeated too; the tests before one in its file
 * run with it (their state is its start) and are not reported. One jest run per repetition
 * runs them all (two files at a time, as `npm test` does), each file on its own database.
 * The exit status is 1 when any test failed in any repetition.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { markdownTable } from './bench-lib';

const ROOT = resolve(__dirname, '..');
/**
 * Jest's time per test here: 4 times `npm test`'s 30 s. A loaded machine makes slow tests
 * slower, and a test that times out leaves its work running into the next test of its file
 * (the ranker's daily recount did on a machine at a load of 20): that is the machine, not a
 * race. A test that hangs still fails.
 */
const TEST_TIMEOUT_MS = 120_000;
const TESTS = join(ROOT, 'test', 'integration');

/** The areas and what is a concurrency test in each: several writers or runs at once, or a delivery repeated. */
const AREAS: { area: string; files: RegExp; titles: RegExp }[] = [
  // Two ranker runs on one list: parts written at once, the set counts of the later recount, a lagging read.
  { area: 'ranker', files: /^(ranker|top-lists)\.test\.ts$/, titles: /at once|two runs|eventually consistent|later recount/i },
  // Counting: redelivered and replayed stream batches, concurrent first responses on one page, imports sent twice at once.
  {
    area: 'counters',
    files: /^(stream-consumer|responses|responses-import|counting.*)\.test\.ts$/,
    titles: /twice|concurrent|at once|redeliver|replay|again/i,
  },
  // The alerts job: two evaluations at once alert once; a delivery once.
  { area: 'alerts', files: /^alerts.*\.test\.ts$/, titles: /at once|once|concurren|twice/i },
  // Screening: floods and bursts held while counted, never counted in between (issue 39).
  {
    area: 'screening',
    files: /^(quarantine|visitor-votes|screening.*|address.*)\.test\.ts$/,
    titles: /burst|flood|at once|concurren|exactly once|never counted|twice/i,
  },
];

/** Literal test titles of a file: `it('...'`, `test("...",`, also on the next line. */
function titlesOf(source: string): string[] {
  const titles: string[] = [];
  for (const match of source.matchAll(/\b(?:it|test)\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)) {
    if (match[1] === '`' && match[2].includes('${')) continue;
    titles.push(match[2].replace(/\\(.)/g, '$1'));
  }
  return titles;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Selected {
  area: string;
  file: string;
  title: string;
}

/**
 * The concurrency tests, and the titles jest must run for them: in each file, also every
 * test before the last one selected, since a test may build on the state those left (the
 * alerts test on the settings the test before it saved).
 */
function selectTests(): { selected: Selected[]; run: string[] } {
  const selected: Selected[] = [];
  const run: string[] = [];
  for (const name of readdirSync(TESTS).sort()) {
    const file = relative(ROOT, join(TESTS, name));
    const all = titlesOf(readFileSync(join(TESTS, name), 'utf8'));
    let last = -1;
    for (const { area, files, titles } of AREAS) {
      if (!files.test(name)) continue;
      all.forEach((title, index) => {
        if (!titles.test(title)) return;
        selected.push({ area, file, title });
        last = Math.max(last, index);
      });
    }
    run.push(...all.slice(0, last + 1));
  }
  return { selected, run };
}

interface JestReport {
  testResults: { name: string; assertionResults: { title: string; status: string; failureMessages: string[] }[]; message: string }[];
}

function main(): number {
  const { values } = parseArgs({ options: { times: { type: 'string', default: '50' }, out: { type: 'string' }, list: { type: 'boolean', default: false } } });
  const times = Number(values.times);
  if (!Number.isInteger(times) || times < 1) throw new Error('--times must be a positive integer');
  const { selected, run: titles } = selectTests();
  if (selected.length === 0) throw new Error('no concurrency test found: check AREAS in scripts/stress-concurrency.ts');
  const files = [...new Set(selected.map((entry) => entry.file))];
  const pattern = titles.map(escapeRegExp).join('|');
  console.log(
    `${selected.length} tests in ${files.length} files (with the ${titles.length - selected.length} tests before them in their files), ${times} times:`,
  );
  for (const entry of selected) console.log(`  ${entry.area.padEnd(10)} ${entry.file}: ${entry.title}`);
  if (values.list) return 0;

  const workDir = join(ROOT, '.tmp', 'stress-concurrency');
  mkdirSync(workDir, { recursive: true });
  const key = (file: string, title: string) => `${file}\n${title}`;
  const tally = new Map(selected.map((entry) => [key(entry.file, entry.title), { ...entry, passed: 0, failed: 0, missing: 0, firstFailure: '' }]));
  const started = Date.now();
  for (let run = 1; run <= times; run++) {
    const output = join(workDir, `run-${run}.json`);
    const runStarted = Date.now();
    const jest = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'jest'),
      [...files, '--testNamePattern', pattern, '--testTimeout', String(TEST_TIMEOUT_MS), '--json', '--outputFile', output],
      {
        cwd: ROOT,
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const report: JestReport | undefined = existsSync(output) ? JSON.parse(readFileSync(output, 'utf8')) : undefined;
    const seen = new Set<string>();
    for (const file of report?.testResults ?? []) {
      for (const result of file.assertionResults) {
        const entry = tally.get(key(relative(ROOT, file.name), result.title));
        if (!entry || result.status === 'pending' || result.status === 'skipped') continue;
        seen.add(key(entry.file, entry.title));
        if (result.status === 'passed') entry.passed++;
        else {
          entry.failed++;
          entry.firstFailure ||= `run ${run}: ${result.failureMessages.join('\n').split('\n').slice(0, 6).join('\n')}`;
        }
      }
      // A file that failed before its tests ran (its setup): each of its tests counts as failed.
      if (file.assertionResults.length === 0 && file.message) {
        for (const entry of tally.values()) {
          if (entry.file !== relative(ROOT, file.name)) continue;
          entry.failed++;
          seen.add(key(entry.file, entry.title));
          entry.firstFailure ||= `run ${run}: ${file.message.split('\n').slice(0, 6).join('\n')}`;
        }
      }
    }
    for (const entry of tally.values()) if (!seen.has(key(entry.file, entry.title))) entry.missing++;
    const failures = [...tally.values()].reduce((sum, entry) => sum + entry.failed, 0);
    const seconds = ((Date.now() - runStarted) / 1000).toFixed(0);
    console.log(`run ${run}/${times}: jest exit ${jest.status}, ${seen.size}/${tally.size} tests ran, ${failures} failures so far (${seconds} s)`);
  }
  const rows = [...tally.values()];
  console.log(`\n${times} runs in ${((Date.now() - started) / 60_000).toFixed(1)} minutes.\n`);
  console.log(
    markdownTable(
      ['area', 'test', 'passed', 'failed', 'did not run'],
      rows.map((entry) => [entry.area, `${entry.file}: ${entry.title}`, String(entry.passed), String(entry.failed), String(entry.missing)]),
      [false, false, true, true, true],
    ),
  );
  for (const entry of rows.filter((row) => row.firstFailure)) console.log(`\nFirst failure of "${entry.title}":\n${entry.firstFailure}`);
  if (values.out) writeFileSync(values.out, `${JSON.stringify({ date: new Date().toISOString(), times, tests: rows }, null, 2)}\n`);
  return rows.some((entry) => entry.failed > 0 || entry.missing > 0) ? 1 : 0;
}

process.exitCode = main();
