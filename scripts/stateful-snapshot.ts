/**
 * The deployed shape of the stack's stateful resources (the table and its stream, the user
 * pool, the console's bucket, the Secrets Manager secrets), and the check that an upgrade
 * from that shape to the synthesized stack loses none of them.
 *
 * The snapshot (SNAPSHOT_PATH) holds, per stateful resource of the stack's template, its
 * logical id, type, DeletionPolicy and UpdateReplacePolicy, and the properties whose change
 * replaces it (as CloudFormation's resource specification says, read through AWS's own diff
 * library, @aws-cdk/cloudformation-diff, the one `cdk diff` uses), plus the ones an upgrade
 * must watch although CloudFormation updates them in place (`recorded` below). It is the
 * template fragment of what users run today: `checkUpgrade` diffs the synthesized template
 * against it as `cdk diff` would diff it against the deployed stack.
 *
 * `npm run stateful:snapshot` rewrites it from the app as it is now: a reviewed step
 * (docs/scaling.md, "Migrating a deployed stack"), taken when a release that changes this
 * shape ships, never to make the check pass.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deepEqual, fullDiff, ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { createFeedbackApp, STACK_NAME } from '../lib/app';
import { REPO_ROOT } from '../lib/paths';

// CloudFormation templates are untyped JSON.
type Json = any;

export const SNAPSHOT_PATH = path.join(REPO_ROOT, 'test/infra/stateful-resources.json');

/** What a kind of stateful resource must keep across an upgrade. */
interface StatefulKind {
  /** Properties recorded besides those whose change replaces the resource. */
  readonly recorded: readonly string[];
  /**
   * Properties the diff library calls in-place updates whose change still loses what the
   * resource holds, or that the service cannot change (the update fails or needs a new
   * resource): property -> what is lost.
   */
  readonly keptAsIs: Readonly<Record<string, string>>;
  /** Settings every resource of the kind must have in the synthesized template. */
  readonly required: readonly { readonly path: readonly string[]; readonly value: unknown; readonly why: string }[];
  /**
   * DeletionPolicy and UpdateReplacePolicy must be Retain, whatever the snapshot says. For a
   * kind without it (secrets), a resource recorded as retained must stay retained.
   */
  readonly mustRetain: boolean;
}

export const STATEFUL_KINDS: Readonly<Record<string, StatefulKind>> = {
  'AWS::DynamoDB::Table': {
    recorded: [
      'KeySchema',
      'AttributeDefinitions',
      'GlobalSecondaryIndexes',
      'LocalSecondaryIndexes',
      'StreamSpecification',
      'TimeToLiveSpecification',
      'PointInTimeRecoverySpecification',
      'DeletionProtectionEnabled',
    ],
    keptAsIs: {
      StreamSpecification: 'its stream: a changed or removed stream specification makes a new stream, and the consumers lose their place in the old one',
    },
    required: [
      { path: ['DeletionProtectionEnabled'], value: true, why: 'deletion protection: nobody deletes the table by mistake' },
      {
        path: ['PointInTimeRecoverySpecification', 'PointInTimeRecoveryEnabled'],
        value: true,
        why: 'point-in-time recovery: turning it off deletes the continuous backups',
      },
    ],
    mustRetain: true,
  },
  'AWS::Cognito::UserPool': {
    recorded: ['AliasAttributes', 'DeletionProtection', 'Schema', 'UsernameAttributes', 'UsernameConfiguration'],
    // Cognito fixes these when it creates the pool (its guide, "Settings you can't change");
    // the specification calls them updates. The schema may grow (schemaProblems).
    keptAsIs: {
      AliasAttributes: 'its people: Cognito fixes the sign-in names a pool takes when it creates it',
      UsernameAttributes: 'its people: Cognito fixes the sign-in names a pool takes when it creates it',
      UsernameConfiguration: "its people: Cognito fixes a pool's user-name case sensitivity when it creates it",
    },
    required: [{ path: ['DeletionProtection'], value: 'ACTIVE', why: 'deletion protection: memberships name people by this pool' }],
    mustRetain: true,
  },
  'AWS::S3::Bucket': { recorded: [], keptAsIs: {}, required: [], mustRetain: true },
  'AWS::SecretsManager::Secret': {
    recorded: ['GenerateSecretString', 'SecretString'],
    keptAsIs: {
      GenerateSecretString: 'its value: CloudFormation generates a new one when the generation settings change',
      SecretString: 'its value',
    },
    required: [],
    // Per secret (docs/scaling.md): a key that seals stored data is retained; a value the stack regenerates at no loss is not.
    mustRetain: false,
  },
};

export interface StatefulSnapshot {
  readonly '//': string;
  readonly stack: string;
  /** Logical id -> the resource as deployed, limited to what an upgrade must keep. */
  readonly resources: Record<string, Json>;
}

const isReplacement = (impact: ResourceImpact | undefined) => impact === ResourceImpact.WILL_REPLACE || impact === ResourceImpact.MAY_REPLACE;

/** Properties of `resource` whose change replaces it, as the diff library judges a change of each. */
function replacingProperties(resource: Json): string[] {
  return Object.keys(resource.Properties ?? {}).filter((name) => {
    const before = { Resources: { Probe: { Type: resource.Type, Properties: { [name]: resource.Properties[name] } } } };
    const after = { Resources: { Probe: { Type: resource.Type, Properties: { [name]: { probe: 'changed' } } } } };
    return isReplacement(fullDiff(before, after).resources.get('Probe')?.changeImpact);
  });
}

/** The snapshot of the stateful resources of `template` (the stack's own template). */
export function recordShape(template: Json): StatefulSnapshot {
  const resources: Record<string, Json> = {};
  for (const [id, resource] of Object.entries<Json>(template.Resources ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const kind = STATEFUL_KINDS[resource.Type];
    if (!kind) continue;
    const kept = new Set([...replacingProperties(resource), ...kind.recorded]);
    const properties = Object.fromEntries(
      Object.keys(resource.Properties ?? {})
        .filter((name) => kept.has(name))
        .sort()
        .map((name) => [name, resource.Properties[name]]),
    );
    resources[id] = { Type: resource.Type, DeletionPolicy: resource.DeletionPolicy, UpdateReplacePolicy: resource.UpdateReplacePolicy, Properties: properties };
  }
  return {
    '//': 'The deployed shape of the stateful resources (scripts/stateful-snapshot.ts). Rewritten by `npm run stateful:snapshot` only as docs/scaling.md "Migrating a deployed stack" says.',
    stack: STACK_NAME,
    resources,
  };
}

const valueAt = (value: Json, keys: readonly string[]): unknown => keys.reduce((at, key) => at?.[key], value);

const indexName = (index: Json): string => index.IndexName;

/**
 * CloudFormation creates or deletes at most one global secondary index per update, and
 * changes no index's key schema or projection in place.
 */
function indexProblems(id: string, before: Json[] = [], after: Json[] = []): string[] {
  const old = new Map(before.map((index) => [indexName(index), index]));
  const now = new Map(after.map((index) => [indexName(index), index]));
  const added = [...now.keys()].filter((name) => !old.has(name));
  const removed = [...old.keys()].filter((name) => !now.has(name));
  const problems = [...now.keys()]
    .filter((name) => old.has(name))
    .filter((name) => ['KeySchema', 'Projection'].some((part) => !deepEqual(old.get(name)[part], now.get(name)[part])))
    .map(
      (name) =>
        `${id}: index ${name} changes its key schema or projection, which CloudFormation cannot do in place: add the new index under a new name in one release, remove the old one in a later release`,
    );
  if (added.length + removed.length > 1) {
    problems.push(
      `${id}: ${added.length + removed.length} index changes in one update (added: ${added.join(', ') || 'none'}; removed: ${removed.join(', ') || 'none'}); CloudFormation makes one per update: spread them over releases`,
    );
  }
  return problems;
}

/** A pool's schema may gain attributes; Cognito neither removes nor changes one it has. */
function schemaProblems(id: string, before: Json[] = [], after: Json[] = []): string[] {
  const now = new Map(after.map((attribute) => [attribute.Name, attribute]));
  return before
    .filter((attribute) => !deepEqual(attribute, now.get(attribute.Name)))
    .map(
      (attribute) =>
        `${id}: schema attribute ${attribute.Name} is ${now.has(attribute.Name) ? 'changed' : 'removed'}; Cognito changes no attribute a pool has (it needs a new pool)`,
    );
}

export interface StackTemplates {
  /** The stack's own template, where the stateful resources live. */
  readonly parent: Json;
  /** The nested stacks' templates, by file name. */
  readonly nested: Readonly<Record<string, Json>>;
}

/**
 * What an upgrade from the snapshot's shape to `templates` would lose; empty when nothing.
 * Fails on a stateful resource replaced, removed, moved into a nested stack, or not in the
 * snapshot; on an in-place update that loses data (`keptAsIs`); on a DeletionPolicy or
 * UpdateReplacePolicy that is not Retain where it must be; on a required setting missing;
 * and on more than one index change.
 */
export function checkUpgrade(snapshot: StatefulSnapshot, templates: StackTemplates): string[] {
  const problems: string[] = [];
  const synthesized: Record<string, Json> = templates.parent.Resources ?? {};
  const recorded = snapshot.resources;

  const present = Object.fromEntries(Object.keys(recorded).flatMap((id) => (synthesized[id] ? [[id, synthesized[id]]] : [])));
  const diff = fullDiff({ Resources: recorded }, { Resources: present });

  for (const [id, deployed] of Object.entries<Json>(recorded)) {
    const change = diff.resources.get(id);
    const impact = change?.changeImpact;
    if (impact === ResourceImpact.WILL_DESTROY || impact === ResourceImpact.WILL_ORPHAN) {
      problems.push(`${id} (${deployed.Type}) is no longer in the stack ${snapshot.stack}: an upgrade would delete it, or orphan it and run without it`);
      continue;
    }
    if (change?.resourceTypeChanged) {
      problems.push(`${id} changes type from ${change.oldResourceType} to ${change.newResourceType}: an upgrade would replace it`);
      continue;
    }
    const updates = change?.propertyUpdates ?? {};
    const replacing = Object.entries(updates).filter(([, update]) => isReplacement(update.changeImpact));
    if (replacing.length > 0) {
      problems.push(
        `${id} (${deployed.Type}) would be replaced by an upgrade: ${replacing.map(([name, update]) => `${name} (${update.changeImpact})`).join(', ')}`,
      );
    }
    const kind = STATEFUL_KINDS[deployed.Type];
    for (const [name, lost] of Object.entries(kind?.keptAsIs ?? {})) {
      if (updates[name]) problems.push(`${id}: ${name} changes, so an upgrade would lose ${lost}`);
    }
    const now = synthesized[id];
    for (const policy of ['DeletionPolicy', 'UpdateReplacePolicy'] as const) {
      if ((kind?.mustRetain || deployed[policy] === 'Retain') && now[policy] !== 'Retain') {
        problems.push(`${id}: ${policy} is ${now[policy] ?? 'absent (Delete)'}, must be Retain`);
      }
    }
    if (deployed.Type === 'AWS::DynamoDB::Table') {
      problems.push(...indexProblems(id, deployed.Properties?.GlobalSecondaryIndexes, now.Properties?.GlobalSecondaryIndexes));
    }
    if (deployed.Type === 'AWS::Cognito::UserPool') {
      problems.push(...schemaProblems(id, deployed.Properties?.Schema, now.Properties?.Schema));
    }
  }

  for (const [id, resource] of Object.entries<Json>(synthesized)) {
    const kind = STATEFUL_KINDS[resource.Type];
    if (!kind) continue;
    if (!recorded[id]) problems.push(`${id} (${resource.Type}) is not in the snapshot: record it with npm run stateful:snapshot, reviewed`);
    for (const setting of kind.required) {
      const value = valueAt(resource.Properties, setting.path);
      if (!deepEqual(value, setting.value)) {
        problems.push(`${id}: ${setting.path.join('.')} is ${JSON.stringify(value)}, must be ${JSON.stringify(setting.value)} (${setting.why})`);
      }
    }
  }
  for (const [file, template] of Object.entries(templates.nested)) {
    for (const [id, resource] of Object.entries<Json>(template.Resources ?? {})) {
      if (STATEFUL_KINDS[resource.Type]) {
        problems.push(
          `${id} (${resource.Type}) is in the nested stack ${file}: stateful resources stay in ${snapshot.stack} (moving one between stacks replaces it)`,
        );
      }
    }
  }
  return problems;
}

export function readSnapshot(): StatefulSnapshot {
  return JSON.parse(fs.readFileSync(SNAPSHOT_PATH, 'utf8'));
}

/** The stack's template as `cdk synth` writes it (cdk.json's context), without bundling the functions: no stateful resource depends on their code. */
function synthesizedTemplate(): Json {
  const context = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')).context ?? {};
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  const outdir = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'stateful-snapshot-'));
  try {
    const { app, stack } = createFeedbackApp({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
    return app.synth().getStackByName(stack.stackName).template;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const snapshot = recordShape(synthesizedTemplate());
  fs.writeFileSync(SNAPSHOT_PATH, `${JSON.stringify(snapshot, null, 2)}\n`);
  // In the layout `biome ci` checks (it formats JSON as it formats code).
  execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/biome'), ['format', '--write', SNAPSHOT_PATH], { stdio: 'ignore' });
  process.stdout.write(`${path.relative(REPO_ROOT, SNAPSHOT_PATH)}: ${Object.keys(snapshot.resources).join(', ')}\n`);
}
