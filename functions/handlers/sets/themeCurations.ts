import { callerAccount } from '../../api/auth';
import { setsThemeCurations } from '../../api/declarations/sets';
import { lambdaHandler } from '../../api/lambda';
import { implement } from '../../api/operation';
import { themeCurations } from '../../operations/themes';

export const operation = implement(setsThemeCurations, ([contentSetId], { store, caller }) => themeCurations(store, callerAccount(caller), contentSetId));

export const handler = lambdaHandler(operation);
