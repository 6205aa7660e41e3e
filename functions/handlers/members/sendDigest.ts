import { membersSendDigest } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { sendOwnDigest } from '../../operations/notifications';

export const operation = implement(membersSendDigest, ([projectId], { store, caller, now }) => sendOwnDigest(store, caller, projectId, now));

export const handler = lambdaHandler(operation);
