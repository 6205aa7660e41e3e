/**
 * What is posted for an event: the Standard Webhooks body `{ type, timestamp, data }`, or
 * its Slack / Discord line (domain/webhook-chat.ts), built from a stream event and the
 * project, set and item it concerns.
 */
import { discordBody, slackBody } from '../domain/webhook-chat';
import { TEST_EVENT_TYPE, type DeliveredEventType, type WebhookFormat } from '../domain/webhooks';
import type { ContentItemImage, DomainEvent, ResponseImage } from '../domain/events';
import { responseView } from '../domain/response-view';

export interface ProjectSubject {
  id: string;
  name: string;
}

export interface ContentSetSubject {
  id: string;
  key: string;
  name: string;
  schema: string;
  /** Not posted; the chat line reads the rating's scale from it. */
  schemaConfig?: unknown;
}

export interface ContentItemSubject {
  id: string;
  key: string;
  metadata: { title?: string; description?: string; url?: string };
}

/** The entities events are about, by id (what the consumer could read; a missing one is posted as `{ id }`). */
export interface Subjects {
  projects: Map<string, ProjectSubject>;
  contentSets: Map<string, ContentSetSubject>;
  contentItems: Map<string, ContentItemSubject>;
}

export interface WebhookBody {
  type: DeliveredEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

export const projectSubject = (item: Record<string, unknown>): ProjectSubject => ({ id: String(item.id), name: String(item.name) });

export const contentSetSubject = (item: Record<string, unknown>): ContentSetSubject => ({
  id: String(item.id),
  key: String(item.key),
  name: String(item.name),
  schema: String(item.schema),
  schemaConfig: item.schemaConfig,
});

export function contentItemSubject(item: Pick<ContentItemImage, 'id' | 'key' | 'title' | 'description' | 'url'>): ContentItemSubject {
  return {
    id: item.id,
    key: item.key,
    metadata: {
      ...(item.title === undefined ? {} : { title: item.title }),
      ...(item.description === undefined ? {} : { description: item.description }),
      ...(item.url === undefined ? {} : { url: item.url }),
    },
  };
}

/** The ids an event's body needs looked up. */
export function subjectIds(event: DomainEvent): { projectId: string; contentSetId: string; contentItemId?: string } | undefined {
  switch (event.type) {
    case 'response.created':
    case 'response.updated':
    case 'response.revoked':
    case 'response.quarantined':
      return { projectId: event.after.projectId, contentSetId: event.after.contentSetId, contentItemId: event.after.contentItemId };
    case 'content.created':
      return { projectId: event.after.projectId, contentSetId: event.after.contentSetId };
    default:
      return undefined;
  }
}

/** The account and project an event belongs to (which webhooks may receive it). */
export function eventScope(event: DomainEvent): { accountId: string; projectId: string } {
  const image = 'after' in event ? event.after : event.before;
  return { accountId: image.accountId, projectId: image.projectId };
}

function setData(subject: ContentSetSubject | undefined, id: string) {
  return subject ? { id: subject.id, key: subject.key, name: subject.name, schema: subject.schema } : { id };
}

function responseData(response: ResponseImage, subjects: Subjects) {
  const item = subjects.contentItems.get(response.contentItemId);
  const project = subjects.projects.get(response.projectId);
  return {
    response: responseView(response),
    contentItem: item ?? { id: response.contentItemId },
    contentSet: setData(subjects.contentSets.get(response.contentSetId), response.contentSetId),
    project: project ?? { id: response.projectId },
  };
}

/**
 * The Standard Webhooks body of a stream event, or undefined for events no webhook gets
 * (`content.updated`). `timestamp` is when the change happened.
 */
export function eventBody(event: DomainEvent, subjects: Subjects, now: Date): WebhookBody | undefined {
  switch (event.type) {
    case 'response.created':
      return { type: event.type, timestamp: event.after.createdAt, data: responseData(event.after, subjects) };
    case 'response.updated':
      return { type: event.type, timestamp: event.after.updatedAt, data: { ...responseData(event.after, subjects), previous: { value: event.before.value } } };
    case 'response.revoked':
      return { type: event.type, timestamp: event.after.updatedAt, data: responseData(event.after, subjects) };
    case 'response.quarantined':
      return { type: event.type, timestamp: event.after.updatedAt, data: { ...responseData(event.after, subjects), quarantine: event.after.quarantine } };
    case 'response.deleted': {
      // Erasure: ids only, no value, context or profiling.
      const { id, accountId, projectId, contentSetId, contentItemId } = event.before;
      return {
        type: event.type,
        timestamp: now.toISOString(),
        data: {
          response: { id, accountId, projectId, contentSetId, contentItemId },
          contentItem: { id: contentItemId },
          contentSet: { id: contentSetId },
          project: { id: projectId },
        },
      };
    }
    case 'content.created': {
      const item = event.after;
      const project = subjects.projects.get(item.projectId);
      return {
        type: event.type,
        timestamp: item.createdAt,
        data: {
          contentItem: contentItemSubject(item),
          contentSet: setData(subjects.contentSets.get(item.contentSetId), item.contentSetId),
          project: project ?? { id: item.projectId },
        },
      };
    }
    case 'stats.alert': {
      const { id: _id, accountId: _accountId, createdAt, ...alert } = event.after;
      return { type: event.type, timestamp: createdAt, data: { alertId: event.after.id, ...alert } };
    }
    case 'digest.weekly':
      return { type: event.type, timestamp: event.after.createdAt, data: { digestId: event.after.id, ...event.after.digest } };
    default:
      return undefined;
  }
}

/** What `webhooks/test` posts. */
export function testBody(webhook: { id: string; accountId: string; projectId?: string }, now: Date): WebhookBody {
  return {
    type: TEST_EVENT_TYPE,
    timestamp: now.toISOString(),
    data: { webhook: { id: webhook.id, accountId: webhook.accountId, ...(webhook.projectId ? { projectId: webhook.projectId } : {}) } },
  };
}

/** The text posted to an endpoint of `format`; `setConfig` is the set's schemaConfig (rating scale for chat lines). */
export function formatBody(format: WebhookFormat, body: WebhookBody, setConfig?: unknown): string {
  switch (format) {
    case 'standard':
      return JSON.stringify(body);
    case 'slack':
      return slackBody(body as never, setConfig);
    case 'discord':
      return discordBody(body as never, setConfig);
  }
}
