import * as z from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { defineOperation } from '../../api/operation';
import { AggregatesTarget, StatPeriodModel } from '../../api/response-models';
import { targetAggregates } from '../../operations/aggregates';

/**
 * What the widgets show next to their buttons (GET `?$p=[target]`, no key). Anonymous
 * callers get the counts of sets with publicAggregates only; keyed callers of the set's
 * account always.
 */
export const operation = defineOperation({
  resource: 'responses',
  name: 'getAggregates',
  summary:
    "Counts per option of a content item (by id, or by contentSetId + key) over a period (default lifetime), in the set's option order; zeros for a key nobody answered yet.",
  args: z.tuple([AggregatesTarget, StatPeriodModel.nullish()]),
  signature: 'target: string | ContentKey, period?: StatPeriod',
  result: 'number[]',
  level: 'anonymous',
  readOnly: true,
  errors: ['not-found', 'unauthorized'],
  handler: ([target, period], { store, caller, now }) => targetAggregates(store, caller, target, period, now),
});

export const handler = lambdaHandler(operation);
