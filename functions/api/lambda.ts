import { defaultStore } from '../store/entity-store';
import { lambdaEntry } from './lambda-entry';
import type { OperationDefinition } from './operation';

/** The Lambda entry of one operation; the local server calls the very same function. */
export function lambdaHandler(operation: OperationDefinition) {
  return lambdaEntry(operation, () => ({ store: defaultStore().store }));
}
