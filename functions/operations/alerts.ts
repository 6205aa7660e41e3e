/**
 * alerts/list and projects/digest: the alerts the alerts job raised (functions/jobs/alerts.ts,
 * store/alerts.ts), newest first through the one cursor paging (paging.ts), and a project's
 * weekly digest (digest.ts); alerts/settings and alerts/saveSettings: the account's false
 * discovery rate, on its account item.
 */
import type { AccountAlertSettingsInputModel, AlertListModel, DigestQueryModel } from '../api/alert-models';
import { ApiError } from '../api/errors';
import { type AccountAlertSettings, accountAlertSettingsOf } from '../domain/alerts';
import { DEFAULT_PAGE_SIZE } from '../api/models';
import { type AlertFilter, alertOf, readAlerts } from '../store/alerts';
import type { Store } from '../store/entities';
import { buildProjectDigest } from './digest';
import { type CursorScope, cursorPage, type IndexSource } from './paging';
import { loadProject } from './projects';

/** The account's alerts partition as a source for the paging helpers: a position is the last item's keys. */
function alertSource(store: Store, accountId: string, filter: AlertFilter): IndexSource<Record<string, unknown>> {
  return {
    read: async (start, count) => {
      const { items, resume } = await readAlerts(store, accountId, filter, { count, start: start === null ? undefined : JSON.parse(start) });
      return resume ? { items, resume: JSON.stringify(resume) } : { items };
    },
    positionOf: (item) => JSON.stringify({ pk: item.pk, sk: item.sk }),
  };
}

export async function listAlerts(store: Store, accountId: string, query: AlertListModel | null | undefined) {
  const selection = query ?? { $size: DEFAULT_PAGE_SIZE };
  const filter: AlertFilter = { projectId: selection.projectId, contentSetId: selection.contentSetId };
  const scope: CursorScope = { accountId, path: 'args.0.cursor', scope: { operation: 'alerts/list', ...filter } };
  const page = await cursorPage(alertSource(store, accountId, filter), scope, { cursor: selection.cursor, size: selection.$size });
  return { items: page.items.map(alertOf), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
}

export async function projectDigest(store: Store, accountId: string, projectId: string, query: DigestQueryModel | null | undefined, now: Date) {
  const project = await loadProject(store, accountId, projectId);
  return buildProjectDigest(store, { accountId, projectId, name: project.name }, query?.reference ? new Date(query.reference) : now);
}

/** alerts/settings: the account's alert settings, the default filled in. */
export async function alertSettings(store: Store, accountId: string): Promise<AccountAlertSettings> {
  const { data } = await store.entities.Account.get({ id: accountId }).go();
  if (!data) throw new ApiError('unauthorized', 'The account no longer exists');
  return accountAlertSettingsOf(data.alerts);
}

/** alerts/saveSettings: the account's false discovery rate, read by the next day's evaluation. */
export async function saveAlertSettings(store: Store, accountId: string, input: AccountAlertSettingsInputModel, now: Date): Promise<AccountAlertSettings> {
  const { data } = await store.entities.Account.patch({ id: accountId })
    .set({ alerts: { falseDiscoveryRate: input.falseDiscoveryRate }, updatedAt: now.toISOString() })
    .go({ response: 'all_new' });
  return accountAlertSettingsOf(data.alerts);
}
