import { createStore, type Store } from './entities';
import { defaultTableClient } from './dynamodb-clients';

let cached: ReturnType<typeof build> | undefined;

function build() {
  const table = defaultTableClient();
  const { client, documentClient, rawClient, settings } = table;
  return { store: createStore(table) as Store, client, documentClient, rawClient, settings };
}

/** The ElectroDB store over this process's one DynamoDB client, created on first use. */
export function defaultStore() {
  cached ??= build();
  return cached;
}
