import { callerAccount } from '../../api/auth';
import { contentsThemes } from '../../api/declarations/contents';
import { lambdaHandler } from '../../api/lambda';
import { implement } from '../../api/operation';
import { scopeThemes } from '../../operations/themes';

export const operation = implement(contentsThemes, ([id, filter], { store, caller, now }) =>
  scopeThemes(store, callerAccount(caller), { kind: 'contents', id }, filter, now),
);

export const handler = lambdaHandler(operation);
