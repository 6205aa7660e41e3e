/**
 * The webhooks operations (webhooks/*) as the console's webhook pages use them.
 *
 * They are not in the typed client yet: they land with the webhooks issue, and the client's
 * generated types and OPERATIONS follow the registry of the server it was generated from.
 * Until then this module types the resource from its documented shapes, and `webhooksOf`
 * hands the pages the client's own `webhooks` resource: present once the client has the
 * operations, undefined before (the pages then say so instead of calling anything). No
 * request is made here; every call goes through the typed client.
 *
 * When the generated client has webhooks, this module becomes `client.webhooks` and the
 * generated types, and is deleted.
 */
import type { FeedbackClient } from '@feedback-service/client';
import { useSession } from '../session';

export type WebhookEventType = 'response.created' | 'response.updated' | 'response.revoked' | 'response.deleted' | 'content.created';
export type WebhookFormat = 'standard' | 'slack' | 'discord';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface Webhook {
  id: string;
  accountId: string;
  projectId?: string;
  url: string;
  events: WebhookEventType[];
  format: WebhookFormat;
  description?: string;
  enabled: boolean;
  disabledReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** webhooks/save's changes; `null` clears projectId (all projects) or description. */
export interface WebhookInput {
  url?: string;
  events?: WebhookEventType[];
  projectId?: string | null;
  format?: WebhookFormat;
  description?: string | null;
  enabled?: boolean;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode?: number;
  lastError?: string;
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookTestResult {
  deliveryId: string;
  status: 'succeeded' | 'failed';
  statusCode?: number;
  error?: string;
  durationMs: number;
}

export interface WebhooksResource {
  create(webhook: WebhookInput & { url: string }): Promise<Webhook & { secret: string }>;
  get(id: string): Promise<Webhook>;
  list(query?: { projectId?: string; $size?: number; cursor?: string } | null): Promise<{ items: Webhook[]; cursor?: string }>;
  save(id: string, changes: WebhookInput): Promise<Webhook>;
  remove(id: string): Promise<void>;
  rotateSecret(id: string): Promise<{ secret: string }>;
  test(id: string): Promise<WebhookTestResult>;
  deliveries(query: { webhookId: string; status?: DeliveryStatus; $size?: number; cursor?: string }): Promise<{ items: Delivery[]; cursor?: string }>;
  redeliver(deliveryId: string): Promise<Delivery>;
}

/** The client's webhooks resource, or undefined while the client has no webhooks operations. */
export function webhooksOf(client: FeedbackClient): WebhooksResource | undefined {
  return (client as unknown as { webhooks?: WebhooksResource }).webhooks;
}

/** The webhooks resource of the signed-in client; only under WebhooksGate (app.tsx), which checks it is there. */
export function useWebhooks(): WebhooksResource {
  const webhooks = webhooksOf(useSession().client);
  if (!webhooks) throw new Error('useWebhooks outside WebhooksGate');
  return webhooks;
}
