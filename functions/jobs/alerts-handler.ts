import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { logger } from '../observability/logger';
import { withMail } from '../mail/mails';
import { defaultTableClient } from '../store/dynamodb-clients';
import { type AlertsResult, configuredConsoleUrl, runAlerts } from './alerts';

/**
 * The alerts job's Lambda entry, run every hour by an EventBridge schedule. Two runs at
 * once are harmless (an entity's guard lets one alert through), so no reserved
 * concurrency. DynamoDB actions it needs: GetItem, BatchGetItem, Query, PutItem,
 * BatchWriteItem (the watch list); its transaction is Puts.
 */
export const handler = middy<unknown, AlertsResult>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(() => withMail(defaultTableClient(), (mail) => runAlerts(defaultTableClient(), new Date(), { consoleUrl: configuredConsoleUrl(), mail })));
