import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import { countStreamRecords } from './counting';

/** The counting consumer's Lambda entry; `npm start` feeds the same function from DynamoDB Local's stream. */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler((event) => countStreamRecords(defaultTableClient(), event.Records, new Date()));
