import { contentsLookup } from '../../api/declarations/contents';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { lookupContentItems } from '../../operations/contents';

export const operation = implement(contentsLookup, ([text, filters], { store, caller }) =>
  lookupContentItems(store, callerAccount(caller), text, filters ?? {}),
);

export const handler = lambdaHandler(operation);
