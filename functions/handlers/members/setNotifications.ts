import { membersSetNotifications } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { setNotifications } from '../../operations/notifications';

export const operation = implement(membersSetNotifications, ([settings], { store, caller, now }) => setNotifications(store, caller, settings, now));

export const handler = lambdaHandler(operation);
