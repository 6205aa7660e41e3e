import { aggregatesMaxAge, publicCacheControl } from '../../api/cache-control';
import { responsesGetAggregates } from '../../api/declarations/responses';
import { implementOnTable } from '../../api/operation';
import { tableLambdaHandler } from '../../api/table-lambda';
import { widgetCounts } from '../../operations/widget-counts';

/**
 * The widgets' counts. A GET answer for a set with public aggregates may be cached by
 * CloudFront and browsers for AGGREGATES_MAX_AGE_SECONDS (the same counts for everyone);
 * any other answer is not cached.
 */
export const operation = implementOnTable(responsesGetAggregates, async ([target, period], { store, caller, now, request, responseHeaders }) => {
  const { values, publicAggregates } = await widgetCounts(store, caller, target, period, now);
  if (request.method === 'GET' && publicAggregates) responseHeaders['Cache-Control'] = publicCacheControl(aggregatesMaxAge());
  return values;
});

export const handler = tableLambdaHandler(operation);
