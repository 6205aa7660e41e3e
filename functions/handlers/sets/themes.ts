import { callerAccount } from '../../api/auth';
import { setsThemes } from '../../api/declarations/sets';
import { lambdaHandler } from '../../api/lambda';
import { implement } from '../../api/operation';
import { scopeThemes } from '../../operations/themes';

export const operation = implement(setsThemes, ([id, filter], { store, caller, now }) =>
  scopeThemes(store, callerAccount(caller), { kind: 'sets', id }, filter, now),
);

export const handler = lambdaHandler(operation);
