import * as fs from 'node:fs';
import * as path from 'node:path';

/** CloudFormation refuses a template with more resources than this (per template: a nested stack has its own). */
export const CLOUDFORMATION_RESOURCE_LIMIT = 500;

/**
 * What each template of today's registry may hold at most: half the limit, so that twice
 * today's operations still fit (test/infra/headroom.test.ts synthesizes that too).
 */
export const RESOURCE_BUDGET = 250;

export interface TemplateSize {
  /** The template's file in the cloud assembly. */
  file: string;
  resources: number;
  /** Resources by type, most first. */
  byType: [string, number][];
}

/** Every template of a synthesized cloud assembly (the stack's and its nested stacks'), largest first. */
export function templateSizes(assemblyDir: string): TemplateSize[] {
  return fs
    .readdirSync(assemblyDir)
    .filter((file) => file.endsWith('.template.json'))
    .map((file) => {
      const resources: Record<string, { Type: string }> = JSON.parse(fs.readFileSync(path.join(assemblyDir, file), 'utf8')).Resources ?? {};
      const byType = new Map<string, number>();
      for (const resource of Object.values(resources)) byType.set(resource.Type, (byType.get(resource.Type) ?? 0) + 1);
      return { file, resources: Object.keys(resources).length, byType: [...byType].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])) };
    })
    .sort((a, b) => b.resources - a.resources || a.file.localeCompare(b.file));
}
