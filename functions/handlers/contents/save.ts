import { contentsSave } from '../../api/declarations/contents';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { saveContentItem } from '../../operations/contents';

export const operation = implement(contentsSave, ([contentId, input], { store, caller, now }) =>
  saveContentItem(store, callerAccount(caller), contentId, input, now),
);

export const handler = lambdaHandler(operation);
