import { contentsGet } from '../../api/declarations/contents';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { getContentItem } from '../../operations/contents';

export const operation = implement(contentsGet, ([contentId], { store, caller }) => getContentItem(store, callerAccount(caller), contentId));

export const handler = lambdaHandler(operation);
