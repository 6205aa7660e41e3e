import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { isAudited, RESOURCES, type OperationDeclaration } from '../../functions/api/operation';
import { handlerModule, OPERATION_NAMES, operationList, operations } from '../../functions/api/registry';
import { loadOperationModules } from '../../local/operation-modules';
import { currentDocs, DOCS_PATH } from '../../scripts/api-docs';

describe('operation registry', () => {
  it.each(OPERATION_NAMES)('%s is declared under its own name and has a Lambda entry', async (name) => {
    const operation = operations[name];
    expect(`${operation.resource}/${operation.name}`).toBe(name);
    const entry = resolve(__dirname, '../..', handlerModule(operation));
    expect(existsSync(entry)).toBe(true);
    const module = await import(entry);
    expect(module.operation).toMatchObject(operation);
    expect(loadOperationModules().get(name)?.operation).toBe(module.operation);
    expect(typeof module.handler).toBe('function');
  });

  it('declarations load no runtime code: cdk synth reads them without middy, Powertools or ElectroDB', () => {
    const script = `require('./lib/app'); const loaded = Object.keys(require.cache).filter((file) => /node_modules\\/(electrodb|@middy|@aws-lambda-powertools)\\//.test(file)); console.log(JSON.stringify(loaded));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: resolve(__dirname, '../..'), encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual([]);
  });

  it('has exactly one handler module per declaration, and no handler module without one', () => {
    const handlersRoot = resolve(__dirname, '../../functions/handlers');
    const found = readdirSync(handlersRoot, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `functions/handlers/${file.replaceAll('\\', '/')}`)
      .sort();
    expect(found).toEqual(operationList.map((operation) => handlerModule(operation)).sort());
  });

  it.each(RESOURCES)('declarations/%s.ts declares only operations of that resource', async (resource) => {
    const declared = Object.values(await import(`../../functions/api/declarations/${resource}`)) as OperationDeclaration[];
    expect(declared.length).toBeGreaterThan(0);
    for (const operation of declared) expect(operation.resource).toBe(resource);
  });

  it("only the widget operations are anonymous; admin: create/save, erasure, keys, webhooks, the audit log, the account's alert settings and theme curation", () => {
    const anonymous = OPERATION_NAMES.filter((name) => operations[name].level === 'anonymous');
    // And members/invitedTo: what an invitation link invites to, for the one who holds its token.
    expect(anonymous.sort()).toEqual(['members/invitedTo', 'responses/create', 'responses/edit', 'responses/getAggregates', 'responses/remove']);
    const admin = OPERATION_NAMES.filter((name) => operations[name].level === 'admin');
    expect(
      admin.every(
        (name) =>
          /\/(create|save)$/.test(name) ||
          /^responses\/(erase|import|release|discard)$/.test(name) ||
          /^(keys|members|webhooks|audit)\//.test(name) ||
          name === 'alerts/saveSettings' ||
          name === 'sets/curateThemes',
      ),
    ).toBe(true);
    // members/*: admin, but for members/me (every member and key), members/accept (signed-in people), members/invitedTo (a token's holder),
    // and one's own notifications (every member; keys are refused: they have no mailbox).
    expect(OPERATION_NAMES.filter((name) => name.startsWith('members/') && operations[name].level !== 'admin').sort()).toEqual([
      'members/accept',
      'members/invitedTo',
      'members/me',
      'members/notifications',
      'members/sendDigest',
      'members/setNotifications',
    ]);
    expect([operations['members/me'].level, operations['members/accept'].level]).toEqual(['viewer', 'person']);
    expect(OPERATION_NAMES.filter((name) => /^(keys|webhooks|audit)\//.test(name)).every((name) => operations[name].level === 'admin')).toBe(true);
  });

  it('the lists that page by cursor say so (their functions may read the cursor secret)', () => {
    expect(OPERATION_NAMES.filter((name) => operations[name].pagesByCursor).sort()).toEqual([
      'alerts/list',
      'audit/export',
      'audit/list',
      'keys/list',
      'members/invitations',
      'members/list',
      'responses/export',
      'responses/list',
      'webhooks/deliveries',
      'webhooks/list',
    ]);
  });

  it('the operations that seal or open webhook signing secrets say so (their functions may read the key)', () => {
    expect(OPERATION_NAMES.filter((name) => operations[name].opensWebhookSecrets).sort()).toEqual([
      'webhooks/create',
      'webhooks/rotateSecret',
      'webhooks/test',
    ]);
  });

  it('audits every operation that changes something and needs a key or a person: the registry says which', () => {
    expect(OPERATION_NAMES.filter((name) => isAudited(operations[name])).sort()).toEqual([
      'alerts/saveSettings',
      'contents/create',
      'contents/save',
      'keys/create',
      'keys/revoke',
      'members/accept',
      'members/invite',
      'members/remove',
      'members/renameAccount',
      'members/sendDigest',
      'members/setNotifications',
      'members/setRole',
      'members/withdraw',
      'projects/create',
      'projects/save',
      'responses/discard',
      'responses/erase',
      'responses/import',
      'responses/release',
      'sets/create',
      'sets/curateThemes',
      'sets/save',
      'webhooks/create',
      'webhooks/redeliver',
      'webhooks/remove',
      'webhooks/rotateSecret',
      'webhooks/save',
      'webhooks/test',
    ]);
  });
});

describe('docs/api.md', () => {
  it('has the operation tables of the current registry (run `npm run docs` after changing it)', () => {
    expect(readFileSync(DOCS_PATH, 'utf8')).toBe(currentDocs());
  });
});
