/**
 * `npm run keys -- <command>`: issues, lists and revokes API keys, on the same table as
 * `npm start` (DynamoDB Local) or a deployed stack (AWS). Run with --help for usage.
 *
 * Exit codes: 0 done, 1 failed (unknown key id or account, store unreachable, ...),
 * 2 wrong usage. Errors are one line on stderr, never a stack trace.
 *
 * create, revoke and add-owner write audit entries to the account's log like the API's
 * (docs/api.md, "Audit log"), with the actor `{ type: 'operator', name: 'key CLI' }`;
 * keys and invitations it makes record that actor as their maker.
 */
import type { KeyLevel } from '../functions/api/auth';
import { recordOperatorChange } from '../functions/api/audit';
import { KEY_CLI_ACTOR } from '../functions/domain/audit';
import { ensureAccount, issueApiKey, revokeApiKey } from '../functions/operations/api-keys';
import { createInvitation } from '../functions/operations/members';
import { defaultStore } from '../functions/store/entity-store';
import type { StoreSettings } from '../functions/store/dynamodb-clients';
import { describeError, Failure, print, requestOrExitCode, runCli, UsageError, parseCommandLine, where } from './cli';
import type { ApiKeyItem, Store } from '../functions/store/entities';
import { DEFAULT_TABLE_NAME } from '../functions/store/table';
import { nameProblem, normalizedName } from '../shared/names';

const USAGE = `Usage: npm run keys -- <command> [options]

Manages the API keys of the feedback service. Secrets are stored hashed: a key is
shown once, when it is created.

Commands:
  create --account <name> --level admin|viewer [--label <text>]
                        Issues a key for the account (the account is created on first use)
  list [--account <name>]
                        Lists keys: id, account, level, label, creation date, status
  revoke <keyId>        Revokes a key by its public id (as shown by create and list), with the
                        keys it created and its pending invitations
  add-owner --account <id or name> --email <email> [--console-url <url>]
                        Prints a single-use invitation link (valid 7 days) that makes the
                        person who signs in through it an owner of the account: the first
                        owner of a fresh deploy. Needs sign-in configured (OIDC_ISSUER)

Options:
  --json                Machine-readable JSON on stdout (with npm, use "npm run -s keys" so
                        npm's banner stays out of it)
  -h, --help            Shows this help

Environment (the same settings as npm start):
  DYNAMODB_ENDPOINT     DynamoDB to use, e.g. http://localhost:8000 for the DynamoDB Local of
                        npm start. Unset: DynamoDB on AWS, with the default credential chain
                        and region (AWS_PROFILE, AWS_REGION, ...)
  TABLE_NAME            Table name (default: ${DEFAULT_TABLE_NAME}); for a deployed stack, its table output
  CONSOLE_URL           The console the invitation links point to (add-owner; default
                        http://localhost:3000, npm start's console); --console-url wins

create, revoke and add-owner are written to the account's audit log (actor: the key CLI).

Exit codes: 0 done, 1 failed (e.g. unknown key id), 2 wrong usage.

Examples:
  DYNAMODB_ENDPOINT=http://localhost:8000 npm run keys -- create --account acme --level admin --label "CI"
  DYNAMODB_ENDPOINT=http://localhost:8000 npm run keys -- list --account acme
  AWS_PROFILE=prod TABLE_NAME=<stack table> npm run -s keys -- revoke <keyId> --json
  AWS_PROFILE=prod TABLE_NAME=<stack table> npm run keys -- add-owner --account acme --email ada@example.com --console-url https://<distribution>.cloudfront.net
`;

const COMMANDS = {
  create: { options: ['account', 'level', 'label'], positionals: 0 },
  list: { options: ['account'], positionals: 0 },
  revoke: { options: [], positionals: 1 },
  'add-owner': { options: ['account', 'email', 'console-url'], positionals: 0 },
} as const;
type Command = keyof typeof COMMANDS;

const LEVELS: readonly KeyLevel[] = ['admin', 'viewer'];
const MAX_ACCOUNT_NAME = 100;
const MAX_LABEL = 200;

interface TextOptions {
  account?: string;
  level?: string;
  label?: string;
  email?: string;
  'console-url'?: string;
}

interface Output {
  json: boolean;
  settings: StoreSettings;
}

interface KeyEntry {
  id: string;
  accountId: string;
  accountName: string | null;
  level: KeyLevel;
  label: string | null;
  createdAt: string;
  status: 'active' | 'revoked';
  revokedAt: string | null;
}

function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}

/** User text in a terminal table: control characters (newlines, escapes) become spaces. */
function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/** A name given on the command line, by the API's one rule of names people read (shared/names.ts). */
function nameOption(option: string, value: string | undefined, maxLength: number): string {
  const name = normalizedName(value ?? '');
  if (name === '') throw new UsageError(`--${option} needs a non-empty name`);
  if (name.length > maxLength) throw new UsageError(`--${option} must be at most ${maxLength} characters`);
  const problem = nameProblem(name);
  if (problem !== undefined) throw new UsageError(`--${option} ${problem}`);
  return name;
}

function accountName(value: string | undefined): string {
  return nameOption('account', value, MAX_ACCOUNT_NAME);
}

function entry(key: ApiKeyItem, names: Map<string, string>): KeyEntry {
  return {
    id: key.id,
    accountId: key.accountId,
    accountName: names.get(key.accountId) ?? null,
    level: key.level,
    label: key.label ?? null,
    createdAt: key.createdAt,
    status: key.revokedAt ? 'revoked' : 'active',
    revokedAt: key.revokedAt ?? null,
  };
}

async function accountNames(store: Store, accountIds: Iterable<string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  await Promise.all(
    [...new Set(accountIds)].map(async (id) => {
      const { data } = await store.entities.Account.get({ id }).go();
      if (data) names.set(id, data.name);
    }),
  );
  return names;
}

async function findAccountByName(store: Store, name: string) {
  const { data } = await store.entities.Account.query.byName({ name }).go();
  return data[0] ?? null;
}

async function create(store: Store, values: TextOptions, output: Output): Promise<void> {
  const name = accountName(values.account);
  if (values.level === undefined) throw new UsageError('create needs --level admin|viewer');
  if (!LEVELS.includes(values.level as KeyLevel)) throw new UsageError(`--level must be admin or viewer, not "${values.level}"`);
  const level = values.level as KeyLevel;
  const label = values.label === undefined || values.label.trim() === '' ? undefined : nameOption('label', values.label, MAX_LABEL);

  const now = new Date();
  const account = await ensureAccount(store, name, now);
  const { key, record } = await issueApiKey(store, { accountId: account.id, level, label, createdBy: KEY_CLI_ACTOR }, now);
  await audited(store, account.id, { operation: 'keys/create', targetIds: [record.id], at: now });
  if (output.json) {
    printJson({
      key,
      id: record.id,
      accountId: account.id,
      accountName: account.name,
      level: record.level,
      label: record.label ?? null,
      createdAt: record.createdAt,
    });
    return;
  }
  print(
    [
      'API key (shown only this once; store it now):',
      '',
      `  ${key}`,
      '',
      `Key id      ${record.id}`,
      `Account     ${plain(account.name)} (${account.id})`,
      `Level       ${record.level}`,
      ...(record.label ? [`Label       ${plain(record.label)}`] : []),
      `Created     ${record.createdAt}`,
      `Store       ${where(output.settings)}`,
      '',
      `Use it as the header  Authorization: API-KEY ${key}`,
      `Revoke it with        npm run keys -- revoke ${record.id}`,
    ].join('\n'),
  );
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

async function list(store: Store, values: TextOptions, output: Output): Promise<void> {
  let keys: ApiKeyItem[];
  if (values.account !== undefined) {
    const name = accountName(values.account);
    const account = await findAccountByName(store, name);
    if (!account) throw new Failure(`No account named "${name}" in ${where(output.settings)}`);
    keys = (await store.entities.ApiKey.query.all({ accountId: account.id }).go({ pages: 'all' })).data;
  } else {
    keys = (await store.entities.ApiKey.query.all({}).go({ pages: 'all' })).data;
  }
  const names = await accountNames(
    store,
    keys.map((key) => key.accountId),
  );
  const entries = keys
    .map((key) => entry(key, names))
    .sort(
      (a, b) =>
        (a.accountName ?? a.accountId).localeCompare(b.accountName ?? b.accountId) ||
        a.accountId.localeCompare(b.accountId) ||
        a.createdAt.localeCompare(b.createdAt) ||
        a.id.localeCompare(b.id),
    );
  if (output.json) {
    printJson(entries);
    return;
  }
  if (entries.length === 0) {
    print(`No API keys in ${where(output.settings)}`);
    return;
  }
  print(
    table(
      ['ID', 'ACCOUNT', 'ACCOUNT ID', 'LEVEL', 'LABEL', 'CREATED', 'STATUS'],
      entries.map((key) => [
        key.id,
        plain(key.accountName ?? '?'),
        key.accountId,
        key.level,
        plain(key.label ?? '-'),
        key.createdAt,
        key.revokedAt ? `revoked ${key.revokedAt}` : 'active',
      ]),
    ),
  );
  print(`\n${entries.length} key${entries.length === 1 ? '' : 's'} in ${where(output.settings)}`);
}

async function revoke(store: Store, keyId: string, output: Output): Promise<void> {
  if (keyId.trim() === '') throw new UsageError('revoke needs a key id');
  const { data } = await store.entities.ApiKey.query.byId({ id: keyId }).go();
  const key = data[0];
  if (!key) throw new Failure(`No API key with id "${keyId}" in ${where(output.settings)}`);
  const alreadyRevoked = key.revokedAt !== undefined;
  const now = new Date();
  // Again for a revoked key too: that completes a cascade that was cut short, and keeps the key's time.
  const { cascade } = await revokeApiKey(store, keyId, now);
  const revokedAt = key.revokedAt ?? now.toISOString();
  const fallen = [...cascade.keys.map((fallenKey) => fallenKey.id), ...cascade.invitations.map((invitation) => invitation.id)];
  if (!alreadyRevoked || fallen.length > 0) await audited(store, key.accountId, { operation: 'keys/revoke', targetIds: [keyId, ...fallen], at: now });
  const names = await accountNames(store, [key.accountId]);
  const result = {
    ...entry({ ...key, revokedAt }, names),
    alreadyRevoked,
    alsoRevoked: cascade.keys.map((fallenKey) => fallenKey.id),
    invitationsWithdrawn: cascade.invitations.map((invitation) => invitation.id),
  };
  if (output.json) {
    printJson(result);
    return;
  }
  const account = `${plain(result.accountName ?? '?')} (${result.accountId})`;
  const also = [
    ...(result.alsoRevoked.length > 0 ? [`also revoked ${result.alsoRevoked.length} key(s) it created: ${result.alsoRevoked.join(', ')}`] : []),
    ...(result.invitationsWithdrawn.length > 0 ? [`withdrew ${result.invitationsWithdrawn.length} invitation(s) it made`] : []),
  ];
  print(
    [
      alreadyRevoked
        ? `Key ${keyId} (${result.level}, account ${account}) was already revoked at ${revokedAt}`
        : `Revoked key ${keyId} (${result.level}, account ${account}); calls with it now get 401 unauthorized`,
      ...also.map((line) => `  ${line}`),
    ].join('\n'),
  );
}

/** The audit entry of a change the CLI made; a failed write is said on stderr, and the change stands. */
async function audited(store: Store, accountId: string, change: { operation: string; targetIds: string[]; at: Date }): Promise<void> {
  try {
    await recordOperatorChange(store, accountId, { actor: KEY_CLI_ACTOR, ...change });
  } catch (error) {
    process.stderr.write(`keys: warning: the change was made, but its audit entry was not written (${(error as Error).message})\n`);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The console's base URL for invitation links: --console-url, CONSOLE_URL, else npm start's console. */
function consoleUrl(value: string | undefined): string {
  const text = (value ?? process.env.CONSOLE_URL ?? 'http://localhost:3000').trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--console-url must be a URL, not "${text}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError('--console-url must be an http(s) URL');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

async function addOwner(store: Store, values: TextOptions, output: Output): Promise<void> {
  const reference = accountName(values.account);
  const email = values.email?.trim() ?? '';
  if (!EMAIL.test(email) || email.length > 320) throw new UsageError('add-owner needs --email <address>');
  const base = consoleUrl(values['console-url']);
  const account = (await store.entities.Account.get({ id: reference }).go()).data ?? (await findAccountByName(store, reference));
  if (!account) throw new Failure(`No account with id or name "${reference}" in ${where(output.settings)}`);
  const now = new Date();
  const invitation = await createInvitation(store, { accountId: account.id, email, role: 'owner', inviter: KEY_CLI_ACTOR }, base, now);
  await audited(store, account.id, { operation: 'members/invite', targetIds: [invitation.invitationId], at: now });
  if (output.json) {
    printJson({ ...invitation, accountId: account.id, accountName: account.name });
    return;
  }
  print(
    [
      `Invitation for ${plain(email)} to own ${plain(account.name)} (${account.id}): single use, valid until ${invitation.expiresAt}.`,
      'Send it to them (only they should open it); whoever signs in through it becomes an owner:',
      '',
      `  ${invitation.url}`,
    ].join('\n'),
  );
}

/** A key id as issued: 12 base64url characters (functions/operations/api-keys.ts). */
const KEY_ID = /^[A-Za-z0-9_-]{12}$/;

/**
 * One key id in 64 starts with "-", which parseArgs would take for an option: after
 * `revoke`, an argument shaped like a key id (no option of this CLI is) is moved behind
 * a "--" so it stays the positional id.
 */
function keyIdsAsPositionals(argv: string[]): string[] {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const command = argv.slice(0, end).find((arg) => !arg.startsWith('-'));
  if (command !== 'revoke') return argv;
  const ids = argv.slice(0, end).filter((arg) => arg.startsWith('-') && KEY_ID.test(arg));
  if (ids.length === 0) return argv;
  const options = argv.slice(0, end).filter((arg) => !ids.includes(arg));
  return [...options, '--', ...ids, ...argv.slice(end + 1)];
}

function parse(argv: string[]) {
  const parsed = parseCommandLine({
    args: keyIdsAsPositionals(argv),
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      level: { type: 'string' },
      label: { type: 'string' },
      email: { type: 'string' },
      'console-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values, positionals } = parsed;
  const [name, ...rest] = positionals;
  if (values.help || name === 'help') return 'help';
  if (name === undefined) throw new UsageError('Missing command: create, list, revoke or add-owner');
  if (!(name in COMMANDS)) throw new UsageError(`Unknown command "${name}": use create, list, revoke or add-owner`);
  const command = name as Command;
  const spec = COMMANDS[command];
  for (const option of ['account', 'level', 'label', 'email', 'console-url'] as const) {
    if (values[option] !== undefined && !(spec.options as readonly string[]).includes(option)) {
      throw new UsageError(`--${option} is not an option of ${command}`);
    }
  }
  if (rest.length !== spec.positionals) {
    throw new UsageError(spec.positionals === 0 ? `${command} takes no arguments, got "${rest.join(' ')}"` : `${command} needs exactly one key id`);
  }
  return { command, values, rest };
}

async function main(argv: string[]): Promise<number> {
  const request = requestOrExitCode('keys', USAGE, argv, parse);
  if (typeof request === 'number') return request;
  const { store, client, settings } = defaultStore();
  const output: Output = { json: request.values.json, settings };
  try {
    switch (request.command) {
      case 'create':
        await create(store, request.values, output);
        break;
      case 'list':
        await list(store, request.values, output);
        break;
      case 'revoke':
        await revoke(store, request.rest[0], output);
        break;
      case 'add-owner':
        await addOwner(store, request.values, output);
        break;
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`keys: ${error.message} (see --help)\n`);
      return 2;
    }
    process.stderr.write(`keys: ${error instanceof Failure ? error.message : describeError(error, settings)}\n`);
    return 1;
  } finally {
    client.destroy();
  }
}

runCli('keys', main);
