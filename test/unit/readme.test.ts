import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../lib/paths';

/** The README is for people who run the service (issue 39 §8); how the test suite works and what it costs is docs/testing.md's. */
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const headings = [...readme.matchAll(/^##+ (.+)$/gm)].map((match) => match[1]);

test('says what the service is, how to run, configure and deploy it, and where the docs are', () => {
  expect(readme.startsWith('# Feedback service\n\nA self-hostable backend')).toBe(true);
  expect(readme).toContain('npm install && npm start');
  expect(readme).toContain('npm test');
  expect(headings).toEqual(expect.arrayContaining(['Run it locally', 'Configuration', 'Deploy to AWS', 'More']));
  for (const doc of ['docs/api.md', 'docs/architecture.md', 'docs/scaling.md', 'docs/testing.md']) {
    expect(readme).toContain(`\`${doc}\``);
    expect(existsSync(join(REPO_ROOT, doc))).toBe(true);
  }
});

test('keeps no diary: no run times, CI history or test-suite internals', () => {
  // Durations such as "12 min 48 s", "jest 707 s" or "790 CPU s".
  expect(readme).not.toMatch(/\b\d+ min \d+ s\b|\bjest \d+ s\b|\bCPU s\b/);
  for (const internal of ['run-shared.ts', 'day-guard.ts', 'maxWorkers', 'quick compiler', 'test:times', 'Benchmarks', 'Generated files']) {
    expect(readme).not.toContain(internal);
  }
  const testing = readFileSync(join(REPO_ROOT, 'docs/testing.md'), 'utf8');
  expect(testing).toContain('npm run test:times');
  expect(testing).toContain('## Benchmarks');
});
