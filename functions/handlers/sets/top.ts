import { setsTop } from '../../api/declarations/sets';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { ContentSetTopQueryModel } from '../../api/aggregate-models';
import { callerAccount } from '../../api/auth';
import { topContentSets } from '../../operations/top';

export const operation = implement(setsTop, ([query], { store, caller, now }) =>
  topContentSets(store, callerAccount(caller), ContentSetTopQueryModel.parse(query ?? {}), now),
);

export const handler = lambdaHandler(operation);
