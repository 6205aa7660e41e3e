import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { SNSEvent } from 'aws-lambda';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import { applySesEvents } from './bounces';

/** The Lambda entry of SES's bounce and complaint events, delivered by the stack's SNS topic (bounces.ts). */
export const handler = middy<SNSEvent, { suppressed: number }>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event) => ({
    suppressed: await applySesEvents(
      defaultTableClient(),
      event.Records.map((record) => record.Sns.Message),
      new Date(),
    ),
  }));
