import * as z from 'zod';
import { StatsFilter } from '../../api/aggregate-models';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { id } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { projectStats } from '../../operations/aggregates';

export const operation = defineOperation({
  resource: 'projects',
  name: 'getStats',
  summary:
    'Aggregated responses of a project over one period (default lifetime), with one data point per hour, day, month or year of the period.',
  args: z.tuple([id, StatsFilter.nullish()]),
  signature: 'id: string, filter?: StatsFilter',
  result: 'AggregatedData',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  handler: ([entityId, filter], { store, caller, now }) => projectStats(store, callerAccount(caller), entityId, filter, now),
});

export const handler = lambdaHandler(operation);
