/**
 * `npm run synth:report`: synthesizes the app as `cdk deploy` would (cdk.json's context,
 * bundling skipped: it changes no resource) and prints the resources of every template,
 * largest first, against CloudFormation's limit of 500 per template and this project's
 * budget of 250 (lib/resource-budget.ts). `-- --types` adds each template's resources by type.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createFeedbackApp } from '../lib/app';
import { CLOUDFORMATION_RESOURCE_LIMIT, RESOURCE_BUDGET, templateSizes } from '../lib/resource-budget';

const showTypes = process.argv.includes('--types');
const context = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'cdk.json'), 'utf8')).context ?? {};
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'feedback-synth-report-'));
try {
  const { app } = createFeedbackApp({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  app.synth();
  const sizes = templateSizes(outdir);
  const width = Math.max(...sizes.map((size) => size.file.length));
  console.log(`${'template'.padEnd(width)}  resources  (limit ${CLOUDFORMATION_RESOURCE_LIMIT}, budget ${RESOURCE_BUDGET})`);
  for (const size of sizes) {
    console.log(`${size.file.padEnd(width)}  ${String(size.resources).padStart(9)}${size.resources > RESOURCE_BUDGET ? '  over budget' : ''}`);
    if (showTypes) for (const [type, count] of size.byType) console.log(`${''.padEnd(width)}  ${String(count).padStart(9)}  ${type}`);
  }
  console.log(`${'all templates'.padEnd(width)}  ${String(sizes.reduce((sum, size) => sum + size.resources, 0)).padStart(9)}`);
} finally {
  fs.rmSync(outdir, { recursive: true, force: true });
}
