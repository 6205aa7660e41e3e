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
