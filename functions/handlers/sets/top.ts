import * as z from 'zod';
import { ContentSetTopQueryModel } from '../../api/aggregate-models';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { defineOperation } from '../../api/operation';
import { topContentSets } from '../../operations/aggregates';

export const operation = defineOperation({
  resource: 'sets',
  name: 'top',
  summary:
    'Content sets of the account (or of a project) with the most responses in a period (default rolling7d), highest first, each with its stats for that period.',
  args: z.tuple([ContentSetTopQueryModel.nullish()]),
  signature: 'query?: ContentSetTopQueryModel',
  result: '(ContentSet & { stats: AggregatedData })[]',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  handler: ([query], { store, caller, now }) => topContentSets(store, callerAccount(caller), ContentSetTopQueryModel.parse(query ?? {}), now),
});

export const handler = lambdaHandler(operation);
