/**
 * The alerts job's watch list, written once a day per entity: the job runs hourly, and a
 * page answered all day long is named by the change records of every run. Runs the real
 * job against DynamoDB Local on change records as the counting consumer writes them, and
 * observes the job's requests (each still sent) for the watch list's UpdateItems.
 */
import { runAlerts } from '../../functions/jobs/alerts';
import { ensureAccount } from '../../functions/operations/api-keys';
import { createProject } from '../../functions/operations/projects';
import { createContentSet } from '../../functions/operations/sets';
import { defaultStore } from '../../functions/store/entity-store';
import { ensureTable } from '../../functions/store/setup';
import { recordRankingChanges } from '../../functions/store/top-lists';

jest.setTimeout(120_000);

const { store, client } = defaultStore();

/** Runs the job now, and answers the watch entries it wrote (`<entity>#<id>`). */
async function runObserved() {
  const written: string[] = [];
  const send = store.documentClient.send.bind(store.documentClient) as (...args: unknown[]) => Promise<unknown>;
  const observed = jest.spyOn(store.documentClient, 'send').mockImplementation(((
    command: { input: { Key?: { pk?: string; sk?: string } } },
    ...rest: unknown[]
  ) => {
    const key = command.input.Key;
    if (command.constructor.name === 'UpdateCommand' && String(key?.pk).startsWith('alertwatch#')) written.push(String(key?.sk));
    return send(command, ...rest);
  }) as never);
  try {
    const run = await runAlerts(store, new Date());
    return { run, written: written.sort() };
  } finally {
    observed.mockRestore();
  }
}

test('an entity is written to the watch list on its first run of the day, and only read on the next ones', async () => {
  await ensureTable(client, store.tableName);
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const account = await ensureAccount(store, 'alerts-watch', now);
  const project = await createProject(store, account.id, { name: 'Watched' }, now);
  const set = await createContentSet(store, account.id, { projectId: project.id, key: 'helpful', schema: 'yes-no', metadata: { name: 'Helpful?' } }, now);
  const changed = (batchId: string, items: string[]) =>
    recordRankingChanges(
      store,
      new Map([[set.id, { accountId: account.id, projectId: project.id, contentSetId: set.id, items: new Set(items), from: today }]]),
      batchId,
    );

  await changed('batch-1', ['page-a']);
  const first = await runObserved();
  expect(first.run.changeRecords).toBe(1);
  expect(first.written).toEqual([`contentItem#page-a`, `contentSet#${set.id}`].sort());

  // The next run: the same page and its set again, and a page new today.
  await changed('batch-2', ['page-a', 'page-b']);
  const second = await runObserved();
  expect(second.run.changeRecords).toBe(1);
  // All three were evaluated (none has the responses to be tested), only the new page written.
  expect(second.run.evaluated).toBe(3);
  expect(second.written).toEqual(['contentItem#page-b']);
});
