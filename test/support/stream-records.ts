import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

let sequence = 1000;

/** A stream record as Lambda delivers it (NEW_AND_OLD_IMAGES), with a fresh event id and sequence number. */
export function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  oldImage?: Record<string, unknown>,
  newImage?: Record<string, unknown>,
): DynamoDBRecord {
  const keys = (newImage ?? oldImage)!;
  sequence++;
  return {
    eventID: `event-${sequence}`,
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: marshall({ pk: keys.pk, sk: keys.sk }) as never,
      SequenceNumber: String(sequence),
      ...(oldImage ? { OldImage: marshall(oldImage, { removeUndefinedValues: true }) as never } : {}),
      ...(newImage ? { NewImage: marshall(newImage, { removeUndefinedValues: true }) as never } : {}),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/**
 * The newest shard of the table's stream in DynamoDB Local: the shard a record replayed by
 * hand comes from, since the consumers' watermarks are per shard (the webhooks consumer reads
 * the screening's verdicts from them).
 */
export async function currentShardId(client: DynamoDBClient, tableName: string): Promise<string> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const config = await client.config.credentials();
  const streams = new DynamoDBStreamsClient({ endpoint: await endpointOf(client), region: await client.config.region(), credentials: config });
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: Table!.LatestStreamArn! }));
  streams.destroy();
  return StreamDescription!.Shards!.at(-1)!.ShardId!;
}

async function endpointOf(client: DynamoDBClient): Promise<string> {
  const endpoint = await client.config.endpoint!();
  return `${endpoint.protocol}//${endpoint.hostname}${endpoint.port ? `:${endpoint.port}` : ''}${endpoint.path}`;
}
