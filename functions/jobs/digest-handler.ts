import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { logger } from '../observability/logger';
import { withMail } from '../mail/mails';
import { defaultTableClient } from '../store/dynamodb-clients';
import { type DigestResult, runDigests } from './digest';

/** The weekly digest job's Lambda entry, run on Monday at 08:00 UTC by an EventBridge schedule. */
export const handler = middy<unknown, DigestResult>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(() => withMail(defaultTableClient(), (mail) => runDigests(defaultTableClient(), new Date(), mail)));
