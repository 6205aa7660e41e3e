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
 * When mail is on, the same digest goes by mail to the members who follow the project with
 * the digest on (mail/mails.ts), once per member, project and week. A mail that still
 * failed after its retries leaves the week's checkpoint unwritten and fails the run, so
 * the schedule's retry (and npm start's next minute) sends what is left, and only that.
 *
 * Projects come from the watch list (responses in the last 15 days), so the job reads no
 * project that had none: such a project has an empty week to report. Cost per run: a
 * Query per watch shard, the account's webhooks and members (one Query each per account),
 * and per project sent what `projects/digest` reads, then per mail what mail/sender.ts
 * reads and writes.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { digestWeeks } from '../domain/digest';
import { newId } from '../domain/text';
import { logger } from '../observability/logger';
import { buildProjectDigest } from '../operations/digest';
import { recordDigest, watchedProjects } from '../store/alerts';
import type { TableClient } from '../store/dynamodb-clients';
import { accountWebhooks, type WebhookRecord } from '../store/webhooks';
import { type Audience, accountAudience } from '../mail/audience';
import { digestReaders, type MailContext, mailDigest } from '../mail/mails';
import type { MailOutcome } from '../mail/sender';

const CHECKPOINT_KEY = { pk: 'digests', sk: 'checkpoint' };
/** Monday's hour (UTC) from which the week's digests go out. */
export const DIGEST_HOUR_UTC = 8;

export interface DigestResult {
  week: string;
  /** Whether this run was the week's (false: before Monday 08:00, or the week's digests went out already). */
  ran: boolean;
  sent: string[];
  /** Digest mails sent by this run. */
  mailed: number;
}

/** Whether a webhook asks for a project's digest: enabled, subscribed to `digest.weekly`, and of the account or that project. */
export function wantsDigest(webhook: WebhookRecord, projectId: string): boolean {
  return webhook.enabled && webhook.events.includes('digest.weekly') && (!webhook.projectId || webhook.projectId === projectId);
}

async function projectName(store: TableClient, projectId: string): Promise<string | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: { pk: `project#${projectId}`, sk: 'project' } }));
  return Item ? String(Item.name) : undefined;
}

export interface ProjectDigestSent {
  /** The `digest.weekly` event's record, when webhooks were to get it (undefined: none, or the week's went out already). */
  id?: string;
  /** The mails to the members who follow the project with the digest on. */
  mailed: MailOutcome[];
}

/**
 * Sends one project's digest of the last complete week before `now` now: to the webhooks
 * (as the `digest.weekly` event) when `webhooks`, and by mail when `mail` is given.
 * `weekly`: as the week's digest, at most once per project (webhooks) and per member
 * (mail) and week; otherwise (`npm run digest`) always. Undefined when the project does not exist.
 */
export async function sendProjectDigest(
  store: TableClient,
  project: { accountId: string; projectId: string },
  now: Date,
  weekly: boolean,
  targets: { webhooks: boolean; mail?: MailContext; audience?: Audience } = { webhooks: true },
): Promise<ProjectDigestSent | undefined> {
  const name = await projectName(store, project.projectId);
  if (name === undefined) return undefined;
  const digest = await buildProjectDigest(store, { ...project, name }, now);
  let id: string | undefined;
  if (targets.webhooks) {
    const recorded = newId();
    const once = weekly ? `${project.projectId}#${digest.week.from}` : undefined;
    if (await recordDigest(store, { id: recorded, accountId: project.accountId, projectId: project.projectId, digest, createdAt: now.toISOString() }, once))
      id = recorded;
  }
  const mailed = targets.mail
    ? await mailDigest(targets.mail.sender, targets.mail.settings, targets.audience ?? (await accountAudience(store, project.accountId)), digest, weekly)
    : [];
  return { ...(id ? { id } : {}), mailed };
}

/** One run at `now` (see the header). */
export async function runDigests(store: TableClient, now: Date, mail?: MailContext): Promise<DigestResult> {
  const week = digestWeeks(now).week.from;
  const { Item: checkpoint } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: CHECKPOINT_KEY, ConsistentRead: true }));
  // The last complete week ended on Sunday: its digests go out from Monday 08:00.
  const sunday = new Date(`${digestWeeks(now).week.to}T00:00:00Z`);
  const sendFrom = new Date(sunday.getTime() + (24 + DIGEST_HOUR_UTC) * 3600 * 1000);
  if (checkpoint?.week === week || now < sendFrom) return { week, ran: false, sent: [], mailed: 0 };

  const sent: string[] = [];
  let mailed = 0;
  let unsent = 0;
  const webhooks = new Map<string, WebhookRecord[]>();
  const audiences = new Map<string, Audience>();
  for (const project of await watchedProjects(store, digestWeeks(now).week.from)) {
    if (!webhooks.has(project.accountId)) webhooks.set(project.accountId, await accountWebhooks(store, project.accountId));
    if (mail && !audiences.has(project.accountId)) audiences.set(project.accountId, await accountAudience(store, project.accountId));
    const hooked = webhooks.get(project.accountId)!.some((webhook) => wantsDigest(webhook, project.projectId));
    const audience = audiences.get(project.accountId);
    const read = audience !== undefined && digestReaders(audience, project.projectId).length > 0;
    if (!hooked && !read) continue;
    const done = await sendProjectDigest(store, project, now, true, { webhooks: hooked, ...(read ? { mail, audience } : {}) });
    if (done?.id) sent.push(done.id);
    mailed += done?.mailed.filter((outcome) => outcome.state === 'sent').length ?? 0;
    unsent += done?.mailed.filter((outcome) => outcome.state === 'retry').length ?? 0;
  }
  if (unsent > 0) throw new Error(`${unsent} digest mails could not be sent yet; the next run sends them`);
  await store.documentClient.send(new PutCommand({ TableName: store.tableName, Item: { ...CHECKPOINT_KEY, week, updatedAt: now.toISOString() } }));
  logger.info('weekly digests sent', { week, sent: sent.length, mailed });
  return { week, ran: true, sent, mailed };
}
