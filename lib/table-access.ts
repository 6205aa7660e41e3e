import { Names, Stack, type CfnElement } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { OperationDeclaration } from '../functions/api/operation';
import type { StreamConsumerDeclaration } from '../functions/stream/consumers';
import { acknowledgeNag } from './nag';

/**
 * The one place that says which DynamoDB actions a function may call. Transactions
 * (TransactWriteItems / TransactGetItems) are authorized by these per-item actions, so
 * they are not listed. Never `dynamodb:*`, never Scan.
 */
const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;

export const TABLE_ACTIONS = {
  /**
   * Operations declared `readOnly` (also served on GET). Every function authenticates with
   * GetItem only: an API key's item, or a person's membership item (`member#<personKey>`).
   * audit/list and audit/export Query the account's audit partition (store/audit.ts): reads
   * like any other. Read-only calls are never audited, so these functions need no PutItem for it.
   */
  readOnly: READ_ACTIONS,
  /**
   * Every other operation. ConditionCheckItem: responses/create and /edit commit with
   * ConditionChecks that the project, set and item are active (operations/response-targets.ts).
   * PutItem also writes the audit entry of every call by a key or a member (functions/api/audit.ts:
   * each operation audited is one of these; the stack test checks that its function may Put).
   * members/accept, setRole and remove: TransactWriteItems of Put, Update and Delete on
   * member, invitation and account items (operations/members.ts); members/invite: PutItem
   * of an invitation.
   */
  write: [...READ_ACTIONS, 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
  /**
   * The counting consumer (functions/stream/counting.ts): one conditional UpdateItem per
   * counter item (and its watermark pruning), GetItem of an item whose watermark refused an
   * update, PutItem of the batch's change record for the ranker (stream reads come from the
   * event source). Its screening of new responses first (functions/stream/screening.ts):
   * BatchGetItem of sets, counters and responses, Query of a set's recent responses and an
   * item's day counters, UpdateItem of an address's record and of a held response.
   */
  counting: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  /**
   * The ranker (functions/jobs/ranker.ts): GetItem of its checkpoint and of top lists, Query of
   * change records, counters, an account's lists and the `retire` index, PutItem of lists and
   * its checkpoint.
   */
  ranker: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
  /**
   * The alerts and digest jobs (functions/jobs/alerts.ts, digest.ts): GetItem of checkpoints,
   * sets, items and projects, BatchGetItem of sets and items, Query of change records, the
   * watch list, counters, alerts and webhooks, BatchWriteItem of the watch list, UpdateItem of
   * a watched entity (its day's mark, the day it was tested), PutItem of checkpoints, and the
   * Puts of an alert's or a weekly digest's transaction. Their mail (functions/mail/): Query of
   * an account's members, GetItem of a member, BatchGetItem of suppressions, PutItem of a mail's
   * claim and of a suppression, UpdateItem of the claim's outcome and of an alert once mailed.
   */
  alerts: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'],
  /**
   * The mails' unsubscribe link (functions/unsubscribe/handler.ts, operations/unsubscribe.ts):
   * Query of the member id index (gsi2), GetItem of the member and the account, UpdateItem of
   * the member's preferences, PutItem of the audit entry.
   */
  unsubscribe: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  /**
   * The themes job (functions/jobs/themes.ts): GetItem of its checkpoint, sets and a set's
   * themes state, Query of change records, counters, responses of a day and its own items,
   * PutItem of the state, model parts and checkpoint, BatchWriteItem of messages and day
   * records (and deleting them), UpdateItem of a message's theme, DeleteItem of a sync request
   * it settled.
   */
  themes: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
  /**
   * The webhooks consumer (functions/stream/webhooks.ts): Query of the account's webhooks,
   * BatchGetItem of projects, sets and items, PutItem of deliveries, BatchWriteItem of their pointers; its
   * first attempts update deliveries and webhooks (outcome, failing clock, disabling); on an
   * erasure, Query of the response's pointers and DeleteItem of them and their deliveries.
   * The screening's verdicts (functions/stream/screening.ts `screeningVerdicts`): BatchGetItem
   * of the new responses and their items' day counters.
   */
  webhooks: ['dynamodb:Query', 'dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:BatchWriteItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  /**
   * The webhook sweeper (functions/webhooks/sweeper.ts): Query of the due index, UpdateItem to
   * claim, PutItem of the settled delivery (conditional on its lease) to record, GetItem of
   * webhooks, DeleteItem of deliveries to removed webhooks.
   */
  webhookSweeper: ['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
} as const satisfies Record<string, readonly `dynamodb:${string}`[]> & Record<StreamConsumerDeclaration['access'], readonly string[]>;

export type TableAccess = keyof typeof TABLE_ACTIONS;

/** The access level of an operation's function. */
export function operationAccess(operation: Pick<OperationDeclaration, 'readOnly'>): TableAccess {
  return operation.readOnly ? 'readOnly' : 'write';
}

/**
 * The one write of read-only functions: an API key's lastUsedAt (functions/api/auth.ts,
 * refreshLastUsed). People's requests write nothing: a membership has no lastUsedAt.
 */
export const KEY_USAGE = {
  actions: ['dynamodb:UpdateItem'],
  /** Partition keys of API key items (functions/store/entities.ts). */
  leadingKeys: ['apikey#*'],
  /** The key attributes and lastUsedAt: nothing else of the item may be named. */
  attributes: ['pk', 'sk', 'lastUsedAt'],
} as const;

/**
 * Lets a read-only function refresh the lastUsedAt of API keys and nothing more: UpdateItem
 * only on items whose partition key is an API key's, naming no attribute but the key and
 * lastUsedAt, and returning nothing.
 */
export function grantKeyUsage(role: IRole, table: ITable): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({
      sid: 'KeyUsage',
      actions: [...KEY_USAGE.actions],
      resources: [table.tableArn],
      conditions: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...KEY_USAGE.leadingKeys] },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...KEY_USAGE.attributes] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
      },
    }),
  );
}

/** Grants `access` on the table and its indexes (and nothing else) to a function's role. */
export function grantTableAccess(role: IRole, table: ITable, access: TableAccess): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({
      sid: `Table${access[0].toUpperCase()}${access.slice(1)}`,
      actions: [...TABLE_ACTIONS[access]],
      resources: [table.tableArn, `${table.tableArn}/index/*`],
    }),
  );
  // cdk-nag flattens `${arn}/index/*` to `<TableLogicalId.Arn>/index/*` for a table of the role's
  // stack, and to `<referenceto...Arn>/index/*` (the parameter CDK names after the table's
  // unique id) for a role in a nested stack (lib/operation-functions.ts).
  const cfnTable = table.node.defaultChild as CfnElement | undefined;
  if (cfnTable) {
    const arn = Stack.of(role) === Stack.of(table) ? `${Stack.of(table).getLogicalId(cfnTable)}.Arn` : `referenceto${Names.nodeUniqueId(cfnTable.node)}Arn`;
    acknowledgeNag(role, `AwsSolutions-IAM5[Resource::<${arn}>/index/*]`, 'tableIndexes');
  }
}

/** Partition keys of an account's suppressed mail addresses (functions/store/mail.ts). */
export const SUPPRESSION_KEYS = ['mailsuppress#*'] as const;

/**
 * The bounce function's one write (functions/mail/bounces.ts): PutItem of suppressions, and
 * only on items whose partition key is an account's suppression list; no read, no index.
 */
export function grantSuppressionWrites(role: IRole, table: ITable): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({
      sid: 'SuppressionWrites',
      actions: ['dynamodb:PutItem'],
      resources: [table.tableArn],
      conditions: {
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...SUPPRESSION_KEYS] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
      },
    }),
  );
}
