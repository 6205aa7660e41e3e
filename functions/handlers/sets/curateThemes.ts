import { callerAccount } from '../../api/auth';
import { setsCurateThemes } from '../../api/declarations/sets';
import { lambdaHandler } from '../../api/lambda';
import { implement } from '../../api/operation';
import { curateThemes } from '../../operations/themes';

export const operation = implement(setsCurateThemes, ([contentSetId, curation], { store, caller, now, touched }) =>
  curateThemes(store, callerAccount(caller), contentSetId, curation, now, touched),
);

export const handler = lambdaHandler(operation);
