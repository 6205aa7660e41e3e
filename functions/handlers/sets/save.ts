import { setsSave } from '../../api/declarations/sets';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { saveContentSet } from '../../operations/sets';

export const operation = implement(setsSave, ([contentSetId, input], { store, caller, now }) =>
  saveContentSet(store, callerAccount(caller), contentSetId, input, now),
);

export const handler = lambdaHandler(operation);
