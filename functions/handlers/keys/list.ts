import { keysList } from '../../api/declarations/keys';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { DEFAULT_KEY_PAGE_SIZE } from '../../api/key-models';
import { listAccountKeys } from '../../operations/api-keys';

export const operation = implement(keysList, ([query], { store, caller }) =>
  listAccountKeys(store, callerAccount(caller), query ?? { $size: DEFAULT_KEY_PAGE_SIZE }),
);

export const handler = lambdaHandler(operation);
