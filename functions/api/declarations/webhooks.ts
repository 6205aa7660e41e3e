import * as z from 'zod';
import { declareOperation } from '../operation';
import { id } from '../models';
import {
  CreatedWebhookModel,
  DeliveryModel,
  DeliveryPageModel,
  NoContent,
  WebhookModel,
  WebhookPageModel,
  WebhookSecretModel,
  WebhookTestResultModel,
} from '../result-models';
import { DeliveryListModel, WebhookCreateModel, WebhookListModel, WebhookSaveModel } from '../webhook-models';

export const webhooksCreate = declareOperation({
  resource: 'webhooks',
  name: 'create',
  summary:
    'Registers an endpoint for events of the account (or of one project); answers the Webhook with its signing secret, shown only here. At most 20 per account.',
  args: z.tuple([WebhookCreateModel]),
  signature: '{ url, events?, projectId?, format?, description?, enabled? }',
  result: CreatedWebhookModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
  opensWebhookSecrets: true,
});

export const webhooksGet = declareOperation({
  resource: 'webhooks',
  name: 'get',
  summary: 'A webhook by id (never its secret).',
  args: z.tuple([id]),
  signature: 'id: string',
  result: WebhookModel,
  level: 'admin',
  readOnly: true,
  errors: ['not-found'],
});

export const webhooksList = declareOperation({
  resource: 'webhooks',
  name: 'list',
  summary: "The account's webhooks, oldest first, optionally those of one project; pages follow `cursor`.",
  args: z.tuple([WebhookListModel.nullish()]),
  signature: '{ projectId?, $size?, cursor? }',
  result: WebhookPageModel,
  level: 'admin',
  readOnly: true,
  errors: [],
  pagesByCursor: true,
});

export const webhooksSave = declareOperation({
  resource: 'webhooks',
  name: 'save',
  summary: 'Changes the given fields of a webhook; `enabled: true` re-enables it and clears `disabledReason`.',
  args: z.tuple([id, WebhookSaveModel]),
  signature: 'id: string, { url?, events?, projectId?, format?, description?, enabled? }',
  result: WebhookModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
});

export const webhooksRemove = declareOperation({
  resource: 'webhooks',
  name: 'remove',
  summary: 'Deletes a webhook; its pending deliveries are dropped.',
  args: z.tuple([id]),
  signature: 'id: string',
  result: NoContent,
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
});

export const webhooksRotateSecret = declareOperation({
  resource: 'webhooks',
  name: 'rotateSecret',
  summary: 'Replaces the signing secret; for 24 hours deliveries carry signatures with the new and the old one.',
  args: z.tuple([id]),
  signature: 'id: string',
  result: WebhookSecretModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
  opensWebhookSecrets: true,
});

export const webhooksTest = declareOperation({
  resource: 'webhooks',
  name: 'test',
  summary: 'Sends one webhook.test event now (also to a disabled endpoint) and answers how it went; not retried.',
  args: z.tuple([id]),
  signature: 'id: string',
  result: WebhookTestResultModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
  // One attempt may take 10 s; the function needs that and its own work.
  timeoutSeconds: 20,
  opensWebhookSecrets: true,
});

export const webhooksDeliveries = declareOperation({
  resource: 'webhooks',
  name: 'deliveries',
  summary: "A webhook's delivery log, newest first, optionally of one status; pages follow `cursor`.",
  args: z.tuple([DeliveryListModel]),
  signature: "{ webhookId, status?: 'pending' | 'succeeded' | 'failed', $size?, cursor? }",
  result: DeliveryPageModel,
  level: 'admin',
  readOnly: true,
  errors: ['not-found'],
  pagesByCursor: true,
});

export const webhooksRedeliver = declareOperation({
  resource: 'webhooks',
  name: 'redeliver',
  summary: 'Queues a delivery again (same event, endpoint and webhook-id), with a fresh retry schedule.',
  args: z.tuple([id]),
  signature: 'deliveryId: string',
  result: DeliveryModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
});
