import { contentsTop } from '../../api/declarations/contents';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { ContentTopQueryModel } from '../../api/aggregate-models';
import { callerAccount } from '../../api/auth';
import { topContentItems } from '../../operations/top';

export const operation = implement(contentsTop, ([query], { store, caller, now }) =>
  topContentItems(store, callerAccount(caller), ContentTopQueryModel.parse(query ?? {}), now),
);

export const handler = lambdaHandler(operation);
