/**
 * The CloudFormation templates of a synthesized cloud assembly (cdk.out layout): the
 * stack's own template, named by the manifest, and the templates of its nested stacks,
 * which CDK writes beside it as `*.nested.template.json` files (assets of the parent, not
 * artifacts of the manifest).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface AssemblyTemplates {
  /** Absolute path of the one stack's template. */
  parent: string;
  /** Absolute paths of the nested stacks' templates (none for a stack without nested stacks). */
  nested: string[];
}

export function assemblyTemplates(dir: string): AssemblyTemplates {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const stacks = Object.values<{ type: string; properties?: { templateFile?: string } }>(manifest.artifacts ?? {}).filter(
    (artifact) => artifact.type === 'aws:cloudformation:stack',
  );
  if (stacks.length !== 1 || !stacks[0].properties?.templateFile) {
    throw new Error(`${dir}: expected one stack artifact with a template, found ${stacks.length}`);
  }
  const parent = path.join(dir, stacks[0].properties.templateFile);
  const nested = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.template.json'))
    .map((name) => path.join(dir, name))
    .filter((file) => file !== parent)
    .sort();
  return { parent, nested };
}

// CloudFormation templates are untyped JSON.
export function readTemplate(file: string): any {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
