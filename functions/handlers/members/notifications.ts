import { membersNotifications } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { readNotifications } from '../../operations/notifications';

export const operation = implement(membersNotifications, (_args, { store, caller, now }) => readNotifications(store, caller, now));

export const handler = lambdaHandler(operation);
