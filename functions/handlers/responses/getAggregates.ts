import { responsesGetAggregates } from '../../api/declarations/responses';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { targetAggregates } from '../../operations/widget-counts';

export const operation = implement(responsesGetAggregates, ([target, period], { store, caller, now }) => targetAggregates(store, caller, target, period, now));

export const handler = lambdaHandler(operation);
