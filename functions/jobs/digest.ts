/**
 * The weekly digest job (docs/api.md "Weekly digest"): on Monday from 08:00 UTC, sends each
 * project with responses lately its last complete week (operations/digest.ts) as a
 * `digest.weekly` event, when one of its account's webhooks asks for that event. On AWS an
 * EventBridge rule runs it at Monday 08:00; `npm start` runs it every few minutes and a
 * checkpoint makes all but the first run of the week do nothing. A project's digest is
 * recorded at most once per week (store/alerts.ts `recordDigest`), so a schedule that
 * delivers twice, or two runs at once, send it once; its record's insertion is the event
 * (through the stream to the webhooks consumer).
 *
 * Projects come from the watch list (responses in the last 15 days), so the job reads no
 * project that had none: such a project has an empty week to report. Cost per run: a
 * Query per watch shard, the account's webhooks (one Query per account), and per project
 * sent what `projects/digest` reads.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { digestWeeks } from '../domain/digest';
import { newId } from '../domain/text';
import { logger } from '../observability/logger';
import { buildProjectDigest } from '../operations/digest';
import { recordDigest, watchedProjects } from '../store/alerts';
import type { TableClient } from '../store/dynamodb-clients';
import { accountWebhooks, type WebhookRecord } from '../store/webhooks';

const CHECKPOINT_KEY = { pk: 'digests', sk: 'checkpoint' };
/** Monday's hour (UTC) from which the week's digests go out. */
export const DIGEST_HOUR_UTC = 8;

export interface DigestResult {
  week: string;
  /** Whether this run was the week's (false: before Monday 08:00, or the week's digests went out already). */
  ran: boolean;
  sent: string[];
}

/** Whether a webhook asks for a project's digest: enabled, subscribed to `digest.weekly`, and of the account or that project. */
export function wantsDigest(webhook: WebhookRecord, projectId: string): boolean {
  return webhook.enabled && webhook.events.includes('digest.weekly') && (!webhook.projectId || webhook.projectId === projectId);
}

async function projectName(store: TableClient, projectId: string): Promise<string | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: { pk: `project#${projectId}`, sk: 'project' } }));
  return Item ? String(Item.name) : undefined;
}

/**
 * Sends one project's digest of the last complete week before `now` now. `weekly`: as the
 * week's digest, at most once per project and week; otherwise (`npm run digest`) always.
 * Undefined when the project does not exist.
 */
export async function sendProjectDigest(
  store: TableClient,
  project: { accountId: string; projectId: string },
  now: Date,
  weekly: boolean,
): Promise<string | undefined> {
  const name = await projectName(store, project.projectId);
  if (name === undefined) return undefined;
  const digest = await buildProjectDigest(store, { ...project, name }, now);
  const id = newId();
  const once = weekly ? `${project.projectId}#${digest.week.from}` : undefined;
  return (await recordDigest(store, { id, accountId: project.accountId, projectId: project.projectId, digest, createdAt: now.toISOString() }, once))
    ? id
    : undefined;
}

/** One run at `now` (see the header). */
export async function runDigests(store: TableClient, now: Date): Promise<DigestResult> {
  const week = digestWeeks(now).week.from;
  const { Item: checkpoint } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: CHECKPOINT_KEY, ConsistentRead: true }));
  // The last complete week ended on Sunday: its digests go out from Monday 08:00.
  const sunday = new Date(`${digestWeeks(now).week.to}T00:00:00Z`);
  const sendFrom = new Date(sunday.getTime() + (24 + DIGEST_HOUR_UTC) * 3600 * 1000);
  if (checkpoint?.week === week || now < sendFrom) return { week, ran: false, sent: [] };

  const sent: string[] = [];
  const webhooks = new Map<string, WebhookRecord[]>();
  for (const project of await watchedProjects(store, digestWeeks(now).week.from)) {
    if (!webhooks.has(project.accountId)) webhooks.set(project.accountId, await accountWebhooks(store, project.accountId));
    if (!webhooks.get(project.accountId)!.some((webhook) => wantsDigest(webhook, project.projectId))) continue;
    const id = await sendProjectDigest(store, project, now, true);
    if (id) sent.push(id);
  }
  await store.documentClient.send(new PutCommand({ TableName: store.tableName, Item: { ...CHECKPOINT_KEY, week, updatedAt: now.toISOString() } }));
  logger.info('weekly digests sent', { week, sent: sent.length });
  return { week, ran: true, sent };
}
