import * as z from 'zod';
import { STAT_PERIODS } from '../../shared/periods';
import { PROFILING_FIELDS, type ProfilingField } from '../domain/profiling';
import { SCHEMAS, type Schema } from '../domain/schemas';
import { CONTENT_STATES, PROJECT_STATES, RESPONSE_STATES } from '../domain/states';
import { QUARANTINE_REASONS } from '../domain/quarantine';
import { DELIVERY_STATUSES, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from '../domain/webhooks';
import { ALERT_MAIL_MODES } from '../domain/notifications';
import { SUPPRESSION_REASONS } from '../domain/mail-suppression';
import { ERROR_STATUS, type ErrorCode } from './errors';

/**
 * Result models: what each operation answers, as zod schemas. Every declaration names
 * one (`OperationDeclaration.result`); the OpenAPI document, the docs tables and the
 * TypeScript client are generated from them, and the integration tests parse every
 * successful answer with its operation's model (test/support/result-check.ts).
 *
 * Objects are `z.object`: parsing strips unknown fields, which is how the tests notice a
 * handler leaking one (the parsed value differs from the answer). Named models carry
 * `.meta({ id })`: they become `components.schemas` of the OpenAPI document and named
 * types of the client. Like the argument models, this module loads no runtime code.
 */

/** Every date of the API: ISO 8601 in UTC with milliseconds, e.g. `2026-11-22T09:16:58.534Z`. */
export const timestamp = z.iso.datetime().meta({ id: 'Timestamp', description: 'ISO 8601 in UTC with milliseconds, e.g. 2026-11-22T09:16:58.534Z.' });
const entityId = z.string().min(1);

export const ProjectModel = z
  .object({
    id: entityId,
    name: z.string(),
    accountId: entityId,
    createdAt: timestamp,
    updatedAt: timestamp,
    state: z.enum(PROJECT_STATES),
    metadata: z.object({ description: z.string().optional() }),
  })
  .meta({ id: 'Project', description: 'A project: the top of the hierarchy, holding content sets.' });

const sentiment = z.number().min(-1).max(1);

export const ReactionConfigModel = z
  .strictObject({
    options: z.array(z.strictObject({ value: z.string(), sentiment, intensity: z.number().min(0).max(1) })),
  })
  .meta({ id: 'ReactionConfig', description: 'schemaConfig of a reaction set, complete (a preset is stored as its options).' });
export const RatingConfigModel = z
  .strictObject({ min: z.number(), max: z.number(), step: z.number() })
  .meta({ id: 'RatingConfig', description: 'schemaConfig of a rating set, complete.' });
export const TaggedMessageConfigModel = z
  .strictObject({ tags: z.array(z.strictObject({ value: z.string(), sentiment, label: z.string().optional(), icon: z.string().optional() })) })
  .meta({ id: 'TaggedMessageConfig', description: 'schemaConfig of a tagged-message set, complete.' });
/** pulse, yes-no and message have nothing to configure. */
const EmptyConfigModel = z.strictObject({});

export const SchemaConfigModel = z
  .union([ReactionConfigModel, RatingConfigModel, TaggedMessageConfigModel, EmptyConfigModel])
  .meta({ id: 'SchemaConfig', description: "A content set's complete schemaConfig; its shape follows the set's schema." });

export const QuarantineSettingsModel = z
  .object({
    visitorBurst: z.number().int().min(0),
    addressLimit: z.number().int().min(0),
    surgeFactor: z.number().int().min(1),
    surgeFloor: z.number().int().min(0),
    spamCheck: z.boolean(),
  })
  .meta({ id: 'QuarantineSettings', description: 'A content set\'s quarantine settings, defaults filled in (docs/api.md, "Quarantine").' });

export const AlertSettingsModel = z
  .object({
    enabled: z.boolean(),
    minResponses: z.number().int().min(1),
    /** Absent for schemas without a score (pulse, message). */
    minDrop: z.number().positive().optional(),
  })
  .meta({ id: 'AlertSettings', description: 'A content set\'s alert settings, defaults filled in (docs/api.md, "Alerts").' });

export const ContentSetModel = z
  .object({
    id: entityId,
    name: z.string(),
    key: z.string(),
    accountId: entityId,
    projectId: entityId,
    createdAt: timestamp,
    updatedAt: timestamp,
    state: z.enum(CONTENT_STATES),
    schema: z.enum(SCHEMAS),
    schemaConfig: SchemaConfigModel,
    metadata: z.object({
      description: z.string().optional(),
      disallowAutoContentCreation: z.boolean(),
      publicAggregates: z.boolean(),
      /** Seconds; 0 = responses are never revocable. */
      revokeWindow: z.number().int().min(0),
      alerts: AlertSettingsModel,
      /** Anonymous responses: one per visitor, item and UTC day (the schema's default unless saved). */
      onePerVisitor: z.boolean(),
      /** Public counts below this many responses in the period answer zeros; 0 = always the counts. */
      publicMinCount: z.number().int().min(0),
      /** What is held back as a flood or spam (defaults filled in). */
      quarantine: QuarantineSettingsModel,
    }),
  })
  .meta({ id: 'ContentSet', description: 'A content set: content items sharing one feedback schema.' });

const contentMetadata = z.object({ title: z.string().optional(), description: z.string().optional(), url: z.string().optional() });

export const ContentItemModel = z
  .object({
    id: entityId,
    key: z.string(),
    accountId: entityId,
    projectId: entityId,
    contentSetId: entityId,
    createdAt: timestamp,
    updatedAt: timestamp,
    state: z.enum(CONTENT_STATES),
    metadata: contentMetadata,
  })
  .meta({ id: 'ContentItem', description: 'A content item: one page, article or product that receives responses.' });

export const ContentItemLookupEntryModel = z
  .object({ id: entityId, key: z.string(), projectId: entityId, contentSetId: entityId, metadata: contentMetadata })
  .meta({ id: 'ContentItemLookupEntry', description: 'A content item as contents/lookup lists it.' });

/** The stored value of a response, in its canonical form (see "Response values per schema"). */
export const ResponseValueModel = z
  .union([z.string(), z.number(), z.object({ tag: z.string(), message: z.string().optional() })])
  .meta({ id: 'ResponseValue', description: 'A string (pulse, yes-no, reaction, message), a number (rating) or { tag, message? } (tagged-message).' });

export const QuarantineModel = z
  .object({ reason: z.enum(QUARANTINE_REASONS), at: timestamp })
  .meta({ id: 'Quarantine', description: 'Why and when a response was held back (docs/api.md "Quarantine"); kept after its release or discard.' });

export const ResponseModel = z
  .object({
    id: entityId,
    accountId: entityId,
    projectId: entityId,
    contentSetId: entityId,
    contentItemId: entityId,
    createdAt: timestamp,
    updatedAt: timestamp,
    state: z.enum(RESPONSE_STATES),
    value: ResponseValueModel,
    context: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    profiling: z
      .object(Object.fromEntries(PROFILING_FIELDS.map((field) => [field, z.string().optional()])) as Record<ProfilingField, z.ZodOptional<z.ZodString>>)
      .optional(),
    quarantine: QuarantineModel.optional(),
  })
  .meta({ id: 'Response', description: 'One response (revoke tokens are never returned).' });

/** An opaque, sealed position in a list: pass it back to read the next page. */
const pageCursor = z.string().min(1).meta({ id: 'Cursor', description: 'Opaque and tamper-proof: pass it back unchanged to read on.' });

export const ResponsePageModel = z
  .object({
    items: z.array(ResponseModel),
    page: z.number().int().min(1).optional(),
    size: z.number().int().min(1),
    hasMore: z.boolean(),
    cursor: pageCursor.optional(),
    /** A list by theme or phrase, without a cursor: how many messages it selects in all. */
    count: z.number().int().min(0).optional(),
  })
  .meta({
    id: 'ResponsePage',
    description:
      'One page of responses/list, newest first; `cursor` while more remain, `page` when paging by $page; `count` (a list by theme or phrase, first page): the messages it selects in all.',
  });

export const ExportChunkModel = z
  .object({ format: z.enum(['csv', 'ndjson']), data: z.string(), rows: z.number().int().min(0), cursor: pageCursor.optional() })
  .meta({
    id: 'ExportChunk',
    description: 'One chunk of responses/export or audit/export: CSV (header row in the first chunk only) or NDJSON; `cursor` while more remain.',
  });

export const EraseResultModel = z
  .object({ erased: z.number().int().min(0), more: z.boolean().optional() })
  .meta({ id: 'EraseResult', description: 'Responses deleted by this call; `more` when a person has responses left for another call.' });

export const ReviewResultModel = z.object({ changed: z.number().int().min(0), more: z.boolean().optional() }).meta({
  id: 'ReviewResult',
  description: 'Held responses released or discarded by this call; `more` when the item has held responses left for another call.',
});

const keyLevel = z.enum(['viewer', 'admin']);

export const ActorModel = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('key'), keyId: entityId, label: z.string().optional() }),
    z.object({ type: z.literal('person'), memberId: entityId, email: z.string().optional(), name: z.string().optional() }),
    z.object({ type: z.literal('operator'), name: z.string().min(1) }),
  ])
  .meta({
    id: 'Actor',
    description:
      'Who made a call, a key or an invitation: an API key (its public id and label), a member signed in as a person (membership id, and the email and name they joined with, or a verified email), or the operator with direct access to the table (`name`: the key CLI).',
  });

export const ApiKeyInfoModel = z
  .object({
    id: entityId,
    level: keyLevel,
    label: z.string().optional(),
    createdAt: timestamp,
    lastUsedAt: timestamp.optional(),
    revokedAt: timestamp.optional(),
    createdBy: ActorModel.optional(),
  })
  .meta({
    id: 'ApiKeyInfo',
    description: 'An API key as listed: never the key or its hash. `createdBy`: who created it (absent on keys created before creators were recorded).',
  });

export const ApiKeyPageModel = z
  .object({ items: z.array(ApiKeyInfoModel), cursor: pageCursor.optional() })
  .meta({ id: 'ApiKeyPage', description: 'One page of keys/list, newest first.' });

export const CreatedApiKeyModel = z
  .object({ id: entityId, key: z.string().min(1), level: keyLevel, label: z.string().optional(), createdAt: timestamp, createdBy: ActorModel.optional() })
  .meta({ id: 'CreatedApiKey', description: 'A new API key: `key` is shown only in this answer.' });

const role = z.enum(['viewer', 'admin', 'owner']);

export const NotificationPreferencesModel = z
  .object({
    weeklyDigest: z.boolean(),
    alerts: z.enum(ALERT_MAIL_MODES),
    projects: z.array(z.string()).optional(),
  })
  .meta({
    id: 'NotificationPreferences',
    description: 'Notifications in effect: the weekly digest on or off, alert mails (`immediately`, `daily`, `off`), and `projects` when limited to some.',
  });

export const MailSuppressionModel = z.object({ reason: z.enum(SUPPRESSION_REASONS), at: timestamp, detail: z.string().optional() }).meta({
  id: 'MailSuppression',
  description:
    'Why the service sends no more mail to an address in this account: `bounce` (a permanent bounce), `complaint` (marked as spam) or `refused` (the mail server refused it for good).',
});

export const MemberMailModel = z.object({ address: z.string().optional(), suppressed: MailSuppressionModel.optional() }).meta({
  id: 'MemberMail',
  description: "Where the member's mail goes: the address their sign-in provider verified (none: no mail), and its suppression if any.",
});

export const NotificationsModel = z
  .object({
    preferences: NotificationPreferencesModel,
    /** What the member chose; the other fields follow their role. */
    chosen: z.object({ weeklyDigest: z.boolean().optional(), alerts: z.enum(ALERT_MAIL_MODES).optional(), projects: z.array(z.string()).optional() }),
    defaults: NotificationPreferencesModel,
    mail: MemberMailModel,
    /** Whether this deployment sends mail at all; `off` says why not. */
    delivery: z.object({ enabled: z.boolean(), off: z.string().optional() }),
  })
  .meta({
    id: 'Notifications',
    description:
      "Your own notifications in this account: those in effect, what you chose, your role's defaults, where your mail goes, and whether this deployment sends mail.",
  });

export const DigestMailedModel = z
  .object({ sent: z.boolean(), to: z.string(), subject: z.string() })
  .meta({ id: 'DigestMailed', description: 'members/sendDigest: the digest mail sent to your own address, and its subject.' });

export const MemberModel = z
  .object({
    id: entityId,
    role,
    email: z.string().optional(),
    name: z.string().optional(),
    issuer: z.string(),
    subject: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    keys: z.number().int().min(0).optional(),
    /** members/list only: the member's notifications in effect and where their mail goes. */
    notifications: NotificationPreferencesModel.optional(),
    mail: MemberMailModel.optional(),
  })
  .meta({
    id: 'Member',
    description:
      'A person who is a member of the account: who they are at their provider (issuer, subject), as they were when they joined (email, name), and their role. `keys` (members/list): the live API keys that removing them would revoke (those they created, and keys created by those).',
  });

export const MemberPageModel = z
  .object({ items: z.array(MemberModel), cursor: pageCursor.optional() })
  .meta({ id: 'MemberPage', description: 'One page of members/list, oldest first.' });

export const InvitationModel = z
  .object({ invitationId: entityId, url: z.string(), email: z.string(), role, expiresAt: timestamp })
  .meta({ id: 'Invitation', description: 'A single-use invitation: `url` carries its secret (after `#`) and is shown only in this answer.' });

export const PendingInvitationModel = z
  .object({ id: entityId, email: z.string(), role, invitedBy: ActorModel.optional(), createdAt: timestamp, expiresAt: timestamp })
  .meta({
    id: 'PendingInvitation',
    description: 'An invitation not yet accepted, expired or withdrawn: never its link. `invitedBy`: who made it, as named then.',
  });

export const PendingInvitationPageModel = z
  .object({ items: z.array(PendingInvitationModel), cursor: pageCursor.optional() })
  .meta({ id: 'PendingInvitationPage', description: 'One page of members/invitations, newest first.' });

export const AccountModel = z
  .object({ id: entityId, name: z.string() })
  .meta({ id: 'Account', description: 'An account as its people see it: its id and the name an owner gave it.' });

export const InvitedToModel = z
  .object({ accountName: z.string(), role, expiresAt: timestamp })
  .meta({ id: 'InvitedTo', description: 'What an invitation link invites to: the account, the role, and until when the link works.' });

export const MeModel = z
  .object({
    accountId: entityId,
    /** The account's name as an owner set it (members/renameAccount). */
    accountName: z.string(),
    level: keyLevel,
    role: role.optional(),
    person: z.object({ memberId: entityId, email: z.string().optional(), name: z.string().optional() }).optional(),
    key: z.object({ id: entityId, label: z.string().optional() }).optional(),
  })
  .meta({ id: 'Me', description: 'Who the caller is: the account and level, and either the member (role, person) or the API key.' });

export const WebhookModel = z
  .object({
    id: entityId,
    accountId: entityId,
    projectId: entityId.optional(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    format: z.enum(WEBHOOK_FORMATS),
    description: z.string().optional(),
    enabled: z.boolean(),
    /** Why the service disabled it (a 410, or 5 days of failures); cleared when re-enabled. */
    disabledReason: z.string().optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Webhook', description: 'An endpoint receiving events of the account (or of one project); never carries its secret.' });

/** `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
const signingSecret = z.string().startsWith('whsec_');

export const CreatedWebhookModel = WebhookModel.extend({ secret: signingSecret }).meta({
  id: 'CreatedWebhook',
  description: 'A new webhook: `secret` is shown only in this answer.',
});

export const WebhookPageModel = z
  .object({ items: z.array(WebhookModel), cursor: pageCursor.optional() })
  .meta({ id: 'WebhookPage', description: 'One page of webhooks/list, oldest first.' });

export const WebhookSecretModel = z
  .object({ secret: signingSecret })
  .meta({ id: 'WebhookSecret', description: 'The new signing secret of webhooks/rotateSecret, shown only in this answer.' });

export const WebhookTestResultModel = z
  .object({
    deliveryId: entityId,
    status: z.enum(['succeeded', 'failed']),
    statusCode: z.number().int().optional(),
    error: z.string().optional(),
    durationMs: z.number().min(0),
  })
  .meta({ id: 'WebhookTestResult', description: 'How the one attempt of webhooks/test went.' });

export const DeliveryModel = z
  .object({
    id: entityId,
    webhookId: entityId,
    eventId: entityId,
    eventType: z.enum([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE]),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int().min(0),
    lastStatusCode: z.number().int().optional(),
    lastError: z.string().optional(),
    /** While pending: when the next attempt is due. */
    nextAttemptAt: timestamp.optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Delivery', description: "One event's delivery to one webhook, with its attempts (the body is not shown)." });

export const DeliveryPageModel = z
  .object({ items: z.array(DeliveryModel), cursor: pageCursor.optional() })
  .meta({ id: 'DeliveryPage', description: 'One page of webhooks/deliveries, newest first.' });

export const ResponseWriteResultModel = z
  .object({
    responseId: entityId,
    /** The same id under the name the published widgets read. */
    feelbackId: entityId,
    revokable: z.object({ token: z.string(), expireAt: timestamp }).optional(),
  })
  .meta({ id: 'ResponseWriteResult', description: 'What responses/create and responses/edit answer; feelbackId repeats responseId for the widgets.' });

/* ResponseAggregation: SPEC's union of per-schema aggregations, told apart by `schema`. */

const count = z.number().int().min(0);
const aggregationBase = { period: z.string(), values: z.array(count), count };

export const ResponseAggregationModel = z
  .discriminatedUnion('schema', [
    z.object({ schema: z.literal('pulse'), ...aggregationBase, points: z.array(count) }),
    z.object({
      schema: z.literal('yes-no'),
      ...aggregationBase,
      points: z.array(z.tuple([count, count])),
      counts: z.tuple([count, count]),
      summary: z.number(),
    }),
    z.object({
      schema: z.literal('reaction'),
      ...aggregationBase,
      points: z.array(z.tuple([z.array(count), z.number(), z.number()])),
      counts: z.array(count),
      summary: z.number().optional(),
      intensity: z.number().optional(),
    }),
    z.object({ schema: z.literal('rating'), ...aggregationBase, points: z.array(z.tuple([count, z.number()])), summary: z.number() }),
    z.object({ schema: z.literal('message'), ...aggregationBase, points: z.array(count) }),
    z.object({
      schema: z.literal('tagged-message'),
      ...aggregationBase,
      points: z.array(z.tuple([z.array(count), z.number()])),
      counts: z.array(count),
      summary: z.number().optional(),
    }),
  ])
  .meta({ id: 'ResponseAggregation', description: 'The counts of one period, shaped by the schema (projects use the pulse shape).' });

/** A schema without its member above is a compile error here (the union cannot be built from SCHEMAS and stay typed). */
type SchemasWithoutAggregation = Exclude<Schema, z.infer<typeof ResponseAggregationModel>['schema']>;
const everySchemaAggregated: [SchemasWithoutAggregation] extends [never] ? true : SchemasWithoutAggregation = true;
void everySchemaAggregated;

export const AggregatedDataModel = z
  .object({
    /** `<entity>:<entityId>:<period>:<YYYY-MM-DD of referenceDate>`. */
    id: z.string(),
    accountId: entityId,
    projectId: entityId,
    contentSetId: entityId.optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
    entity: z.enum(['project', 'contentSet', 'contentItem']),
    entityId,
    period: z.enum(STAT_PERIODS),
    referenceDate: timestamp,
    data: ResponseAggregationModel,
    count,
    summary: z.number().optional(),
  })
  .meta({ id: 'AggregatedData', description: 'The aggregated responses of one project, content set or content item over one period.' });

const score = z.number();

export const ScoreChangeModel = z
  .object({
    delta: z.number(),
    low: score.nullable(),
    high: score.nullable(),
    significant: z.boolean().nullable(),
    method: z.enum(['newcombe', 'welch', 'count']),
  })
  .meta({
    id: 'ScoreChange',
    description:
      "The change since the previous period (this one minus that one) with its 95% interval: Newcombe's hybrid score interval for a share, Welch's t for a mean; for schemas without a score the change of the count, with no interval.",
  });

export const StatsModel = AggregatedDataModel.extend({
  previous: AggregatedDataModel.optional(),
  change: ScoreChangeModel.nullable().optional(),
}).meta({
  id: 'Stats',
  description:
    'The aggregated responses of one period; with compare "previous", also the period before and the change since (null when either period counted nothing).',
});

export const ScoreIntervalModel = z.object({ value: score, low: score, high: score, method: z.enum(['wilson', 't']) }).meta({
  id: 'ScoreInterval',
  description: "A period's score and its 95% interval: Wilson's score interval for a share, Student's t for a mean (docs/api.md, \"Scores\").",
});

export const ContentSetTopEntryModel = ContentSetModel.extend({ stats: AggregatedDataModel, score: ScoreIntervalModel.optional() }).meta({
  id: 'ContentSetTopEntry',
  description: 'A content set of sets/top with its stats for the period; sorted best or worst, also its score.',
});
export const ContentItemTopEntryModel = ContentItemModel.extend({ stats: AggregatedDataModel, score: ScoreIntervalModel.optional() }).meta({
  id: 'ContentItemTopEntry',
  description: 'A content item of contents/top with its stats for the period; sorted best or worst, also its score.',
});

/** `responses/getAggregates`: one count per option, in the set's option order. */
export const OptionCountsModel = z.array(count);

/** Results of `void` operations: answered as 204 with no body. */
export const NoContent = z.void();

export const ApiErrorModel = z
  .object({
    error: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    id: 'ApiError',
    description: 'Every failure: `error` identifies it; bad-request lists the offending arguments in data.fields as { path, message }.',
  });

export const ImportResultModel = z
  .object({
    rows: z.array(
      z.object({
        index: z.number().int().min(0),
        status: z.enum(['imported', 'duplicate', 'refused']),
        responseId: entityId.optional(),
        error: ApiErrorModel.optional(),
      }),
    ),
  })
  .meta({
    id: 'ImportResult',
    description:
      'One entry per row, in row order: `imported` (with its responseId), `duplicate` (its importId was imported into the set before; with the responseId it has) or `refused` (with the ApiError that refused it).',
  });
export type ImportResultModel = z.infer<typeof ImportResultModel>;

export type ProjectModel = z.infer<typeof ProjectModel>;
export type ContentSetModel = z.infer<typeof ContentSetModel>;
export type ContentItemModel = z.infer<typeof ContentItemModel>;
export type ResponseModel = z.infer<typeof ResponseModel>;
export type AggregatedDataModel = z.infer<typeof AggregatedDataModel>;
export type StatsModel = z.infer<typeof StatsModel>;
export type ApiErrorModel = z.infer<typeof ApiErrorModel>;

/** How a model reads in the docs tables: its id (`Project`), `Project[]`, or the JSON type. */
export function modelName(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id === 'string') return id;
  if (schema instanceof z.ZodArray) return `${modelName(schema.element as z.ZodType)}[]`;
  if (schema instanceof z.ZodVoid) return 'void';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  if (schema instanceof z.ZodNumber) return 'number';
  if (schema instanceof z.ZodString) return 'string';
  throw new Error('Name the model with .meta({ id }) to show it in the docs');
}

export const AuditEntryModel = z
  .object({
    id: entityId,
    at: timestamp,
    actor: ActorModel,
    operation: z.string().min(1),
    targetIds: z.array(entityId),
    sourceIp: z.string().optional(),
    outcome: z.string().min(1),
    requestId: z.string().min(1),
    count: z.number().int().min(1).optional(),
    counts: z.record(z.string(), z.number().int().min(0)).optional(),
  })
  .meta({
    id: 'AuditEntry',
    description:
      'One call that changed (or tried to change) something: who, which operation on which ids, when, from which address, and `ok` or the error code it was answered with. Never secrets, names or values. With `count`: that many refused calls of the actor, operation and outcome in the minute from `at`, beyond the ones with entries of their own. With `counts`: what the call did in numbers (responses/import: rows `imported`, `duplicate`, `refused`).',
  });

export const AuditPageModel = z
  .object({ items: z.array(AuditEntryModel), cursor: pageCursor.optional() })
  .meta({ id: 'AuditPage', description: 'One page of audit/list, newest first; `cursor` while more remain.' });
