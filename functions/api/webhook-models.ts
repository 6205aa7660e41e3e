import * as z from 'zod';
import { DELIVERY_STATUSES, MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from '../domain/webhooks';
import { nameText } from '../domain/names';
import { DEFAULT_PAGE_SIZE, id, MAX_PAGE_SIZE } from './models';
import { cursor } from './response-models';

/** The form of a webhook URL; whether it may be http and where it resolves are checked by the operation (webhooks/targets.ts). */
export const webhookUrl = z
  .string()
  .max(MAX_WEBHOOK_URL_LENGTH)
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), 'must be an absolute http(s) URL');

/** Event types, each once (repeats are merged). */
const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(20)
  .transform((types) => WEBHOOK_EVENT_TYPES.filter((type) => types.includes(type)));

const pageSize = z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE);

/** What a person reads a webhook by (its name in the console): a name, by the one rule. */
const webhookDescription = nameText(255, 0);

export const WebhookCreateModel = z.strictObject({
  url: webhookUrl,
  events: events.optional(),
  projectId: id.optional(),
  format: z.enum(WEBHOOK_FORMATS).optional(),
  description: webhookDescription.optional(),
  enabled: z.boolean().optional(),
});

/** `null` clears projectId (all projects) or description. */
export const WebhookSaveModel = z.strictObject({
  url: webhookUrl.optional(),
  events: events.optional(),
  projectId: id.nullable().optional(),
  format: z.enum(WEBHOOK_FORMATS).optional(),
  description: webhookDescription.nullable().optional(),
  enabled: z.boolean().optional(),
});

export const WebhookListModel = z.strictObject({ projectId: id.optional(), $size: pageSize, cursor: cursor.optional() });

export const DeliveryListModel = z.strictObject({
  webhookId: id,
  status: z.enum(DELIVERY_STATUSES).optional(),
  $size: pageSize,
  cursor: cursor.optional(),
});

export type WebhookCreateModel = z.infer<typeof WebhookCreateModel>;
export type WebhookSaveModel = z.infer<typeof WebhookSaveModel>;
export type WebhookListModel = z.infer<typeof WebhookListModel>;
export type DeliveryListModel = z.infer<typeof DeliveryListModel>;
