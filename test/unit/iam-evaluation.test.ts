import { isAllowed, resolveStatements, type LocalBindings } from '../support/cloud-assembly';
import { requiredPermissions } from '../support/dynamo-recorder';

// The deploy rehearsal's reading of IAM (test/support): it must grant what AWS grants and
// refuse what AWS refuses, or the rehearsal proves nothing about the template.
const bindings: LocalBindings = { partition: 'aws', region: 'eu-west-1', account: '1', tables: new Map(), secrets: new Map() };
const TABLE = 'arn:aws:dynamodb:eu-west-1:1:table/T';
const tableArn = () => TABLE;

// The shape of lib/table-access.ts grantKeyUsage.
const keyUsage = resolveStatements(
  [
    {
      Effect: 'Allow',
      Action: 'dynamodb:UpdateItem',
      Resource: TABLE,
      Condition: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['apikey#*'] },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastUsedAt'] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
      },
    },
  ],
  bindings,
  'test',
);

function update(input: Record<string, unknown>) {
  const [permission] = requiredPermissions({ action: 'UpdateItem', input: { TableName: 'T', ...input }, status: 200 }, tableArn);
  return permission;
}

const refresh = {
  Key: { pk: { S: 'apikey#abc' }, sk: { S: 'apikey' } },
  UpdateExpression: 'SET #lastUsedAt = :now',
  ConditionExpression: 'attribute_exists(#pk) AND (attribute_not_exists(#lastUsedAt) OR #lastUsedAt < :stale)',
  ExpressionAttributeNames: { '#pk': 'pk', '#lastUsedAt': 'lastUsedAt' },
};

describe('conditional statements', () => {
  test('the lastUsedAt refresh of an API key is allowed', () => {
    expect(isAllowed(keyUsage, update(refresh))).toBe(true);
  });

  test('another partition is refused', () => {
    expect(isAllowed(keyUsage, update({ ...refresh, Key: { pk: { S: 'project#1' }, sk: { S: 'project' } } }))).toBe(false);
  });

  test('naming another attribute is refused, aliased or not', () => {
    expect(
      isAllowed(
        keyUsage,
        update({
          ...refresh,
          UpdateExpression: 'SET #lastUsedAt = :now, #level = :admin',
          ExpressionAttributeNames: { ...refresh.ExpressionAttributeNames, '#level': 'level' },
        }),
      ),
    ).toBe(false);
    expect(isAllowed(keyUsage, update({ ...refresh, UpdateExpression: 'SET #lastUsedAt = :now, revokedAt = :now' }))).toBe(false);
  });

  test('asking for the old item back is refused', () => {
    expect(isAllowed(keyUsage, update({ ...refresh, ReturnValues: 'ALL_OLD' }))).toBe(false);
    expect(isAllowed(keyUsage, update({ ...refresh, ReturnValues: 'NONE' }))).toBe(true);
  });

  test('a request whose condition keys are unknown gets no grant from a conditional Allow', () => {
    expect(isAllowed(keyUsage, { action: 'dynamodb:UpdateItem', resource: TABLE })).toBe(false);
  });

  test('an unconditional Deny wins, an undecidable conditional Deny is read as a denial', () => {
    const allowAll = { Effect: 'Allow', Action: 'dynamodb:*', Resource: '*' };
    const deny = (Condition?: unknown) =>
      resolveStatements([allowAll, { Effect: 'Deny', Action: 'dynamodb:UpdateItem', Resource: TABLE, Condition }], bindings, 'test');
    expect(isAllowed(deny(), update(refresh))).toBe(false);
    expect(isAllowed(deny({ 'aws:SomeUnknownOperator': { 'dynamodb:LeadingKeys': ['x'] } }), update(refresh))).toBe(false);
    expect(isAllowed(deny({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['project#*'] } }), update(refresh))).toBe(true);
  });
});
