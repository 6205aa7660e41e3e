import { defaultTableClient } from '../store/dynamodb-clients';
import { lambdaEntry } from './lambda-entry';
import type { RunnableOperation } from './operation';
import type { TableClient } from '../store/dynamodb-clients';

/**
 * The Lambda entry of an operation implemented with `implementOnTable` (the widgets' hot
 * path): the raw table client only, so the bundle carries no ElectroDB. The local server
 * runs the same implementation with the full store (a superset).
 */
export function tableLambdaHandler(operation: RunnableOperation<TableClient>) {
  return lambdaEntry(operation, () => ({ store: defaultTableClient() }));
}
