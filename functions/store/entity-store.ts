import { createStore, type Store } from './entities';
import { defaultTableClient } from './dynamodb-clients';

let cached: ReturnType<typeof build> | undefined;

function build() {
  const { client, documentClient, settings } = defaultTableClient();
  return { store: createStore(documentClient, settings.tableName) as Store, client, documentClient, settings };
}

/** The ElectroDB store over this process's one DynamoDB client, created on first use. */
export function defaultStore() {
  cached ??= build();
  return cached;
}
