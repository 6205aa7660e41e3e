import type { CreateTableCommandInput, KeySchemaElement } from '@aws-sdk/client-dynamodb';
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { createTableInput, TABLE_KEYS } from '../functions/store/table';

/**
 * The service's single table, built from the same description as the local table
 * (functions/store/table.ts: TABLE_KEYS, through createTableInput for key types and
 * projections), so a deployed table and DynamoDB Local cannot drift. Anything that
 * description may grow and this construct does not map yet fails the synthesis.
 */
export class FeedbackTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const shape = createTableInput('cdk');
    if (shape.LocalSecondaryIndexes?.length) throw new Error('FeedbackTable: local secondary indexes are not mapped yet');

    const attribute = (name: string | undefined): Attribute => {
      const definition = shape.AttributeDefinitions?.find((candidate) => candidate.AttributeName === name);
      if (!name || !definition) throw new Error(`FeedbackTable: key attribute ${name} has no definition`);
      return { name, type: attributeType(definition.AttributeType) };
    };
    const keyOf = (schema: KeySchemaElement[] | undefined, keyType: 'HASH' | 'RANGE') => schema?.find((element) => element.KeyType === keyType)?.AttributeName;

    const sortKeyName = keyOf(shape.KeySchema, 'RANGE');
    this.table = new Table(this, 'Table', {
      partitionKey: attribute(keyOf(shape.KeySchema, 'HASH')),
      sortKey: sortKeyName ? attribute(sortKeyName) : undefined,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      stream: streamViewType(shape),
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE_KEYS.timeToLiveAttribute,
      // Retained when the stack goes, and DeleteTable refused until protection is turned off
      // (docs/scaling.md, "What is kept when the stack goes").
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const index of shape.GlobalSecondaryIndexes ?? []) {
      const indexSortKey = keyOf(index.KeySchema, 'RANGE');
      const projection = index.Projection?.ProjectionType ?? 'ALL';
      this.table.addGlobalSecondaryIndex({
        indexName: index.IndexName!,
        partitionKey: attribute(keyOf(index.KeySchema, 'HASH')),
        sortKey: indexSortKey ? attribute(indexSortKey) : undefined,
        projectionType: { ALL: ProjectionType.ALL, KEYS_ONLY: ProjectionType.KEYS_ONLY, INCLUDE: ProjectionType.INCLUDE }[projection],
        nonKeyAttributes: projection === 'INCLUDE' ? index.Projection?.NonKeyAttributes : undefined,
      });
    }
  }
}

function attributeType(type: string | undefined): AttributeType {
  switch (type) {
    case 'S':
      return AttributeType.STRING;
    case 'N':
      return AttributeType.NUMBER;
    case 'B':
      return AttributeType.BINARY;
    default:
      throw new Error(`FeedbackTable: unknown attribute type ${type}`);
  }
}

function streamViewType(shape: CreateTableCommandInput): StreamViewType {
  const viewType = shape.StreamSpecification?.StreamViewType;
  if (!shape.StreamSpecification?.StreamEnabled || !viewType) {
    throw new Error('FeedbackTable: the table needs its stream (the aggregates consumer reads it)');
  }
  return StreamViewType[viewType as keyof typeof StreamViewType];
}
