/**
 * Room under CloudFormation's limit of 500 resources per template (docs/architecture.md,
 * "Room under CloudFormation's limit"): today's stack holds at most 250 in every template
 * (the run's shared assembly, as `cdk deploy` synthesizes it), and the same app with 60
 * operations more than the registry's (about twice today's) stays under 450 in every one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { handlerModule, operationList } from '../../functions/api/registry';
import type { OperationDeclaration } from '../../functions/api/operation';
import { FeedbackStack } from '../../lib/feedback-stack';
import { REPO_ROOT } from '../../lib/paths';
import { RESOURCE_BUDGET, templateSizes } from '../../lib/resource-budget';
import { sharedCloudAssembly } from '../support/shared-assembly';

const GENERATED = 60;

let outdir: string;
beforeAll(() => {
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  outdir = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'headroom-'));
});
afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

test(`today's stack: every template holds at most ${RESOURCE_BUDGET} resources`, async () => {
  const sizes = templateSizes(await sharedCloudAssembly());
  expect(sizes.length).toBeGreaterThan(1);
  expect(sizes.filter((size) => size.resources > RESOURCE_BUDGET).map((size) => `${size.file}: ${size.resources}`)).toEqual([]);
}, 900_000);

test(`with ${GENERATED} more operations (about twice today's), every template stays under 450 resources`, () => {
  // Copies of the registry's declarations in turn, in the same resources (the aliased
  // responses too, whose operations have two routes each), under new names: every group
  // and the parent's routes grow as real new operations would make them grow.
  const generated: OperationDeclaration[] = Array.from({ length: GENERATED }, (_, index) => {
    const model = operationList[index % operationList.length];
    return { ...model, name: `${model.name}Generated${index}` };
  });
  const models = new Map(generated.map((operation, index) => [operation, operationList[index % operationList.length]]));
  // No console, no cdk-nag, no template validation: only the resources are counted here (stack.test.ts checks the rest).
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], console: 'false' }, treeMetadata: false, builtinCloudFormationValidation: false });
  new FeedbackStack(app, 'Headroom', {
    operations: [...operationList, ...generated],
    handlerEntry: (operation) => handlerModule(models.get(operation) ?? operation),
  });
  app.synth();
  const sizes = templateSizes(outdir);
  process.stdout.write(`with ${operationList.length + GENERATED} operations: ${sizes.map((size) => `${size.file} ${size.resources}`).join(', ')}\n`);
  expect(sizes[0].resources).toBeGreaterThan(RESOURCE_BUDGET / 2);
  expect(sizes.filter((size) => size.resources >= 450).map((size) => `${size.file}: ${size.resources}`)).toEqual([]);
}, 300_000);
