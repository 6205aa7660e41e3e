import { responsesRelease } from '../../api/declarations/responses';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { reviewResponses } from '../../operations/response-review';

export const operation = implement(responsesRelease, ([input], { store, caller, now, touched }) =>
  reviewResponses(store, callerAccount(caller), input, 'release', now, touched),
);

export const handler = lambdaHandler(operation);
