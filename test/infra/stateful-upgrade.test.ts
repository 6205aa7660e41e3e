/**
 * Upgrades that cannot drop data: the synthesized stack (the run's shared cloud assembly,
 * every template of it) against the committed snapshot of the deployed shape of its
 * stateful resources (test/infra/stateful-resources.json, scripts/stateful-snapshot.ts),
 * diffed with AWS's own diff library as `cdk diff` diffs a deployed stack.
 *
 * Today's stack passes. The fixtures below change a copy of today's template the way a
 * careless release could, and each must be refused.
 */
import * as path from 'node:path';
import { checkUpgrade, readSnapshot, type StackTemplates, type StatefulSnapshot } from '../../scripts/stateful-snapshot';
import { assemblyTemplates, readTemplate } from '../support/assembly-templates';
import { sharedCloudAssembly } from '../support/shared-assembly';

type Json = any;

let templates: StackTemplates;
const snapshot: StatefulSnapshot = readSnapshot();

beforeAll(async () => {
  const files = assemblyTemplates(await sharedCloudAssembly());
  templates = {
    parent: readTemplate(files.parent),
    nested: Object.fromEntries(files.nested.map((file) => [path.basename(file), readTemplate(file)])),
  };
}, 900_000);

/** The one recorded resource of `type` (and `which`, when there are several). */
function recordedId(type: string, which: (resource: Json) => boolean = () => true): string {
  const ids = Object.entries<Json>(snapshot.resources)
    .filter(([, resource]) => resource.Type === type && which(resource))
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one recorded ${type}, found ${ids.join(', ') || 'none'}`);
  return ids[0];
}

/** Today's templates with the stack's own template changed by `change`. */
function release(change: (resources: Record<string, Json>) => void): StackTemplates {
  const parent = structuredClone(templates.parent);
  change(parent.Resources);
  return { ...templates, parent };
}

const index = (name: string) => ({
  IndexName: name,
  KeySchema: [
    { AttributeName: 'gsi1pk', KeyType: 'HASH' },
    { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'KEYS_ONLY' },
});

test('the snapshot records the table, the user pool, the bucket and the four secrets (cursors, origin, webhook signing, mail links)', () => {
  const types = Object.values<Json>(snapshot.resources).map((resource) => resource.Type);
  expect(types.sort()).toEqual([
    'AWS::Cognito::UserPool',
    'AWS::DynamoDB::Table',
    'AWS::S3::Bucket',
    'AWS::SecretsManager::Secret',
    'AWS::SecretsManager::Secret',
    'AWS::SecretsManager::Secret',
    'AWS::SecretsManager::Secret',
  ]);
  // The properties whose change replaces the table, as the diff library reads CloudFormation's specification.
  expect(snapshot.resources[recordedId('AWS::DynamoDB::Table')].Properties).toHaveProperty('KeySchema');
});

test("today's stack upgrades from the snapshot without replacing, removing or emptying a stateful resource", () => {
  expect(checkUpgrade(snapshot, templates)).toEqual([]);
});

describe('refused upgrades (fixtures)', () => {
  const table = () => recordedId('AWS::DynamoDB::Table');
  const pool = () => recordedId('AWS::Cognito::UserPool');
  const retainedSecret = () => recordedId('AWS::SecretsManager::Secret', (resource) => resource.DeletionPolicy === 'Retain');

  test('a table replaced: its key schema changed', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[table()].Properties.KeySchema = [{ AttributeName: 'pk', KeyType: 'HASH' }];
      }),
    );
    expect(problems).toEqual([`${table()} (AWS::DynamoDB::Table) would be replaced by an upgrade: KeySchema (WILL_REPLACE)`]);
  });

  test('a table replaced: given a name', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[table()].Properties.TableName = 'feedback';
      }),
    );
    expect(problems).toEqual([`${table()} (AWS::DynamoDB::Table) would be replaced by an upgrade: TableName (WILL_REPLACE)`]);
  });

  test('two indexes added in one update', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[table()].Properties.GlobalSecondaryIndexes.push(index('extra1'), index('extra2'));
      }),
    );
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${table()}: 2 index changes in one update \\(added: extra1, extra2; removed: none\\)`))]);
  });

  test('one index added and one removed in one update', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        const indexes = resources[table()].Properties.GlobalSecondaryIndexes;
        indexes.splice(0, 1, index('extra1'));
      }),
    );
    expect(problems).toEqual([expect.stringMatching(/2 index changes in one update \(added: extra1; removed: gsi1\)/)]);
  });

  test('an index changed in place', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[table()].Properties.GlobalSecondaryIndexes[0].Projection = { ProjectionType: 'KEYS_ONLY' };
      }),
    );
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${table()}: index gsi1 changes its key schema or projection`))]);
  });

  test('one index added: allowed', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[table()].Properties.GlobalSecondaryIndexes.push(index('extra1'));
      }),
    );
    expect(problems).toEqual([]);
  });

  test('the table removed from the stack', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        delete resources[table()];
      }),
    );
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${table()} \\(AWS::DynamoDB::Table\\) is no longer in the stack`))]);
  });

  test('the table moved into a nested stack', () => {
    const moved = release((resources) => {
      delete resources[table()];
    });
    const nested = { Resources: { [table()]: templates.parent.Resources[table()] } };
    const problems = checkUpgrade(snapshot, { ...moved, nested: { ...moved.nested, 'Moved.nested.template.json': nested } });
    expect(problems).toEqual([
      expect.stringMatching(/is no longer in the stack/),
      expect.stringMatching(new RegExp(`^${table()} \\(AWS::DynamoDB::Table\\) is in the nested stack Moved.nested.template.json`)),
    ]);
  });

  test('the table no longer retained, nor protected from deletion', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[table()].DeletionPolicy = 'Delete';
        delete resources[table()].UpdateReplacePolicy;
        resources[table()].Properties.DeletionProtectionEnabled = false;
      }),
    );
    expect(problems).toEqual([
      `${table()}: DeletionPolicy is Delete, must be Retain`,
      `${table()}: UpdateReplacePolicy is absent (Delete), must be Retain`,
      expect.stringMatching(new RegExp(`^${table()}: DeletionProtectionEnabled is false, must be true`)),
    ]);
  });

  test("the table's stream changed", () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[table()].Properties.StreamSpecification = { StreamViewType: 'KEYS_ONLY' };
      }),
    );
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${table()}: StreamSpecification changes, so an upgrade would lose its stream`))]);
  });

  test("the webhook secrets key's value regenerated", () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[retainedSecret()].Properties.GenerateSecretString.PasswordLength = 32;
      }),
    );
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${retainedSecret()}: GenerateSecretString changes, so an upgrade would lose its value`))]);
  });

  test('a retained secret no longer retained', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources[retainedSecret()].DeletionPolicy = 'Delete';
      }),
    );
    expect(problems).toEqual([`${retainedSecret()}: DeletionPolicy is Delete, must be Retain`]);
  });

  test('a new secret that the snapshot does not record', () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        resources.NewSecret = { Type: 'AWS::SecretsManager::Secret', Properties: { GenerateSecretString: {} } };
      }),
    );
    expect(problems).toEqual([expect.stringMatching(/^NewSecret \(AWS::SecretsManager::Secret\) is not in the snapshot/)]);
  });

  test("the user pool's sign-in names changed, and an attribute of its schema removed", () => {
    const problems = checkUpgrade(
      snapshot,
      release((resources) => {
        const properties = resources[pool()].Properties;
        properties.UsernameAttributes = ['phone_number'];
        properties.Schema = properties.Schema.filter((attribute: Json) => attribute.Name !== 'name');
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^${pool()}: UsernameAttributes changes, so an upgrade would lose its people`)),
      expect.stringMatching(new RegExp(`^${pool()}: schema attribute name is removed`)),
    ]);
  });
});
