import { contentsCreate } from '../../api/declarations/contents';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { createContentItem } from '../../operations/contents';

export const operation = implement(contentsCreate, ([input], { store, caller, now }) => createContentItem(store, callerAccount(caller), input, now));

export const handler = lambdaHandler(operation);
