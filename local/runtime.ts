import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { KeyLevel } from '../functions/api/auth';
import { ensureAccount, findApiKey, issueApiKey } from '../functions/operations/api-keys';
import { acceptInvitation, createInvitation, moveMembership } from '../functions/operations/members';
import { logger } from '../functions/observability/logger';
import { personKey } from '../functions/api/auth';
import { startLocalOidcProvider, DEV_LOGIN_DOMAIN, type LocalOidc } from './oidc-provider';
import { defaultStore } from '../functions/store/entity-store';
import { ensureTable } from '../functions/store/setup';
import { startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { ensurePrivateDir, keyFromFile } from './private-dir';
import { rateLimitSettingsFromEnv, type LocalRateLimitSettings } from './rate-limiter';
import { BASE_PATH, createApiServer, linkInvitationsTo } from './server';
import { LocalAlerts, LocalDigests } from './alerts-schedule';
import { LocalRanker } from './ranker-schedule';
import { LocalThemes } from './themes-schedule';
import { startStreamConsumers, type LocalStreamConsumers } from './stream-consumers';
import { useSecretsKey } from '../functions/webhooks/secrets';
import { mailTokenKey } from '../functions/secrets/keys';
import { LocalWebhookSweeper } from './webhook-sweeper';

export const DEV_ACCOUNT = 'local-dev';
/** What the console calls the dev account (an owner may rename it). */
export const DEV_ACCOUNT_DISPLAY_NAME = 'Local development';
/** The local provider's login name of the dev account's owner. */
export const DEV_OWNER_LOGIN = 'admin';

export interface LocalRuntimeOptions {
  port: number;
  host?: string;
  /** Folder for DynamoDB Local's files and the generated dev keys; omitted = in memory. */
  dataDir?: string;
  /** An already running DynamoDB (Local or real); nothing is started then. */
  dynamoEndpoint?: string;
  dynamoPort?: number;
  tableName: string;
  devKeys: Partial<Record<KeyLevel, string>>;
  /** Run the stream consumers, the webhook sweeper and the ranker (default true; benchmarks of the API alone turn them off). */
  consumeStream?: boolean;
  /** The ranker's clock (tests move it across midnight). */
  clock?: () => Date;
  /** The built console, served at `/` (see createApiServer). */
  consoleDir?: string;
  /** The per-visitor limit on anonymous writes; default from ANONYMOUS_RATE_LIMIT, ANONYMOUS_RATE_WINDOW_SECONDS and TRUST_PROXY. */
  anonymousRateLimit?: LocalRateLimitSettings;
  /**
   * The local OpenID provider (local/oidc-provider.ts) on this port (0 = ephemeral), which
   * then sets OIDC_ISSUER and OIDC_CLIENT_ID for the API; omitted = none (a provider the user
   * configured with OIDC_ISSUER, or no sign-in).
   */
  oidcPort?: number;
}

export interface LocalRuntime {
  baseUrl: string;
  /** Where the console answers, when a consoleDir was given. */
  consoleUrl?: string;
  streamConsumers?: LocalStreamConsumers;
  ranker?: LocalRanker;
  alerts?: LocalAlerts;
  themes?: LocalThemes;
  digests?: LocalDigests;
  webhookSweeper?: LocalWebhookSweeper;
  dynamoEndpoint: string;
  keys: Record<KeyLevel, string>;
  /** The local provider, when one was started; `DEV_OWNER_LOGIN` signs in as the dev account's owner. */
  oidc?: { issuer: string; clientId: string; ownerLogin: string };
  stop(): Promise<void>;
}

/**
 * Makes the local provider's person `login` an owner of the account (once: a membership of
 * theirs is kept), through an invitation accepted on their behalf, as the API would do it.
 */
export async function ensureDevOwner(accountId: string, issuer: string, login: string): Promise<void> {
  const { store } = defaultStore();
  const person = { issuer, subject: login, email: `${login}@${DEV_LOGIN_DOMAIN}`, emailVerified: true, name: login };
  const { data: existing } = await store.entities.Member.get({ personKey: personKey(person) }).go({ consistent: true });
  if (existing) return;
  const now = new Date();
  const invitation = await createInvitation(
    store,
    { accountId, email: person.email, role: 'owner', inviter: { type: 'operator', name: 'npm start' } },
    'http://localhost',
    now,
  );
  await acceptInvitation(store, { kind: 'newcomer', level: 'anonymous', person }, invitation.url.slice(invitation.url.indexOf('#') + 1), now);
}

/**
 * The local provider's people for this start: its issuer is its address, so a new port
 * (`OIDC_PORT=0`, or another port) is a new issuer, and memberships (keyed by issuer and
 * subject) would be left behind, with a new owner `admin` at each start. The issuer of the
 * last start is kept in `DATA_DIR/oidc-issuer`; the dev account's members of that issuer
 * move to the new one (same member id and role), then `admin` is made owner if not already.
 */
export async function adoptLocalProviderPeople(accountId: string, issuer: string, dataDir: string | undefined, now = new Date()): Promise<void> {
  const { store } = defaultStore();
  const issuerFile = dataDir ? join(dataDir, 'oidc-issuer') : undefined;
  const previous = issuerFile && existsSync(issuerFile) ? readFileSync(issuerFile, 'utf8').trim() : undefined;
  if (previous && previous !== issuer) {
    const { data: members } = await store.entities.Member.query.byAccount({ accountId }).go({ pages: 'all' });
    for (const member of members.filter((candidate) => candidate.issuer === previous)) {
      if (!(await moveMembership(store, member, issuer, now))) {
        logger.warn('local sign-in: a member was not moved to the new issuer', { memberId: member.id, subject: member.subject });
      }
    }
  }
  await ensureDevOwner(accountId, issuer, DEV_OWNER_LOGIN);
  if (issuerFile) writeFileSync(issuerFile, `${issuer}\n`, { mode: 0o600 });
}

/**
 * The dev account's admin and viewer keys: fixed values from the environment when given,
 * otherwise generated once and kept next to the local data so restarts reuse them.
 */
async function ensureDevKeys(wanted: Partial<Record<KeyLevel, string>>, dataDir: string | undefined): Promise<Record<KeyLevel, string>> {
  const { store } = defaultStore();
  const now = new Date();
  const account = await ensureAccount(store, DEV_ACCOUNT, now, DEV_ACCOUNT_DISPLAY_NAME);
  const keyFile = dataDir ? join(dataDir, 'dev-keys.json') : undefined;
  const saved: Partial<Record<KeyLevel, string>> = keyFile && existsSync(keyFile) ? JSON.parse(readFileSync(keyFile, 'utf8')) : {};
  const keys = {} as Record<KeyLevel, string>;
  for (const level of ['admin', 'viewer'] as const) {
    const candidate = wanted[level] ?? saved[level];
    const existing = candidate ? await findApiKey(store, candidate) : null;
    if (candidate && existing && existing.accountId === account.id && existing.level === level) {
      keys[level] = candidate;
    } else {
      const issued = await issueApiKey(store, { accountId: account.id, level, label: `local ${level}`, key: candidate }, now);
      keys[level] = issued.key;
    }
  }
  if (keyFile) writeFileSync(keyFile, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}

/**
 * `npm start`: DynamoDB Local (unless an endpoint is given), the table, dev keys, the HTTP
 * server, the stream consumers, the webhook sweeper and the ranker.
 */
/** A sender address for npm start when MAIL_FROM is not set. */
export const LOCAL_MAIL_FROM = 'Feedback service <feedback@localhost>';

/**
 * Mail under npm start (README, "Mail"): on by default, sent through SMTP_URL when set, else
 * written as .eml files to DATA_DIR/outbox (owner-only like the rest of DATA_DIR); the
 * unsubscribe links' key kept beside the data, so links in mails written earlier keep working.
 */
function configureLocalMail(dataDir: string | undefined): void {
  process.env.MAIL_FROM ??= LOCAL_MAIL_FROM;
  if (dataDir) {
    const outbox = join(dataDir, 'outbox');
    ensurePrivateDir(outbox);
    process.env.MAIL_OUTBOX_DIR ??= outbox;
    if (!process.env.MAIL_TOKEN_KEY) mailTokenKey.use(keyFromFile(join(dataDir, 'mail-token.key')));
  }
}

export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  let dynamo: DynamoDbLocal | undefined;
  // Owner only: DynamoDB Local's files there hold every account's data, next to keys and secrets.
  if (options.dataDir) ensurePrivateDir(options.dataDir);
  if (!options.dynamoEndpoint) {
    dynamo = await startDynamoDbLocal({ port: options.dynamoPort, dbPath: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined });
  }
  const dynamoEndpoint = options.dynamoEndpoint ?? dynamo!.endpoint;
  process.env.DYNAMODB_ENDPOINT = dynamoEndpoint;
  process.env.TABLE_NAME = options.tableName;
  try {
    const { client, store, settings } = defaultStore();
    await ensureTable(client, settings.tableName);
    // Webhook signing secrets are sealed with a key kept beside the data (WEBHOOK_SECRETS_KEY overrides it).
    if (options.dataDir && !process.env.WEBHOOK_SECRETS_KEY) useSecretsKey(keyFromFile(join(options.dataDir, 'webhook-secrets.key')));
    configureLocalMail(options.dataDir);
    const keys = await ensureDevKeys(options.devKeys, options.dataDir);
    const streamConsumers = options.consumeStream === false ? undefined : startStreamConsumers(client, settings.tableName, options.dataDir);
    const ranker = options.consumeStream === false ? undefined : new LocalRanker({ store, clock: options.clock });
    ranker?.start();
    const alerts = options.consumeStream === false ? undefined : new LocalAlerts({ store, clock: options.clock });
    alerts?.start();
    const digests = options.consumeStream === false ? undefined : new LocalDigests({ store, clock: options.clock });
    digests?.start();
    const themes = options.consumeStream === false ? undefined : new LocalThemes({ store, clock: options.clock });
    themes?.start();
    const webhookSweeper = options.consumeStream === false ? undefined : new LocalWebhookSweeper({ store });
    webhookSweeper?.start();
    const server = createApiServer({ consoleDir: options.consoleDir, anonymousRateLimit: options.anonymousRateLimit ?? rateLimitSettingsFromEnv() });
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(options.port, options.host ?? '127.0.0.1', () => listening());
    });
    const { port } = server.address() as AddressInfo;
    const host = options.host && options.host !== '0.0.0.0' ? options.host : 'localhost';
    const consoleUrl = options.consoleDir ? `http://${host}:${port}/` : undefined;
    if (consoleUrl) linkInvitationsTo(consoleUrl);
    let oidc: LocalOidc | undefined;
    if (options.oidcPort !== undefined) {
      const origins = [...new Set([`http://${host}:${port}`, `http://localhost:${port}`, `http://127.0.0.1:${port}`])];
      oidc = await startLocalOidcProvider({ port: options.oidcPort, consoleOrigins: origins, dataDir: options.dataDir });
      process.env.OIDC_ISSUER = oidc.issuer;
      process.env.OIDC_CLIENT_ID = oidc.clientId;
      const account = await ensureAccount(defaultStore().store, DEV_ACCOUNT, new Date(), DEV_ACCOUNT_DISPLAY_NAME);
      await adoptLocalProviderPeople(account.id, oidc.issuer, options.dataDir);
    }
    return {
      baseUrl: `http://${host}:${port}${BASE_PATH}`,
      consoleUrl,
      streamConsumers,
      ranker,
      alerts,
      digests,
      themes,
      webhookSweeper,
      dynamoEndpoint,
      keys,
      oidc: oidc && { issuer: oidc.issuer, clientId: oidc.clientId, ownerLogin: DEV_OWNER_LOGIN },
      stop: async () => {
        await oidc?.stop();
        await new Promise<void>((closed) => {
          server.close(() => closed());
          server.closeIdleConnections();
        });
        await ranker?.stop();
        await alerts?.stop();
        await digests?.stop();
        await themes?.stop();
        await webhookSweeper?.stop();
        await streamConsumers?.stop();
        await dynamo?.stop();
      },
    };
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }
}
