import { useId, useState, type FormEvent } from 'react';
import type { Webhook } from '@feedback-service/client';
import { useProjectLookup } from '../data/projects';

type WebhookEventType = Webhook['events'][number];
type WebhookFormat = Webhook['format'];

/**
 * What the form holds. An empty description means none, an empty project all projects:
 * webhooks/create leaves such a field out, webhooks/save clears it (null).
 */
export interface WebhookFields {
  url: string;
  description: string;
  projectId: string;
  events: WebhookEventType[];
  format: WebhookFormat;
  enabled: boolean;
}

/**
 * The event catalogue: every type a webhook can subscribe to, with its label. Keyed by the
 * client's type, so a type the API adds fails to compile until it is here, and "All events"
 * stays true.
 */
const EVENT_LABELS: Record<WebhookEventType, string> = {
  'response.created': 'A response is created',
  'response.updated': 'A response is changed',
  'response.revoked': 'A response is taken back',
  'response.deleted': 'A response is erased',
  'response.quarantined': 'A response is held for review',
  'content.created': 'A content item is created',
  'stats.alert': 'A page or set gets significantly worse (alert)',
  'digest.weekly': 'The weekly digest is ready',
};
const EVENT_TYPES = Object.keys(EVENT_LABELS) as WebhookEventType[];
/** Sent only to webhooks that ask for them (the API's default leaves them out). */
const ASKED_FOR: readonly WebhookEventType[] = ['response.quarantined'];
const DEFAULT_EVENT_TYPES = EVENT_TYPES.filter((type) => !ASKED_FOR.includes(type));

/** A webhook's events for a person: "All events" when it has every type of the API's default, and the others it asked for. */
export function eventsLabel(events: readonly WebhookEventType[]): string {
  if (!DEFAULT_EVENT_TYPES.every((type) => events.includes(type))) return events.join(', ');
  return ['All events', ...ASKED_FOR.filter((type) => events.includes(type))].join(', ');
}

const FORMATS: { value: WebhookFormat; label: string }[] = [
  { value: 'standard', label: 'Standard Webhooks (signed JSON)' },
  { value: 'slack', label: 'Slack incoming webhook' },
  { value: 'discord', label: 'Discord webhook' },
];

/** URL, description, project, events, format and enabled: for creating and editing a webhook. */
export function WebhookForm(props: {
  initial?: Webhook;
  submitLabel: string;
  busy: boolean;
  onSubmit: (fields: WebhookFields) => void;
  onCancel?: () => void;
}) {
  const initial = props.initial;
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [projectId, setProjectId] = useState(initial?.projectId ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(initial?.events ?? DEFAULT_EVENT_TYPES);
  const [format, setFormat] = useState<WebhookFormat>(initial?.format ?? 'standard');
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const projects = useProjectLookup({ text: '', archived: true });
  const ids = { url: useId(), description: useId(), project: useId(), format: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit({ url: url.trim(), description: description.trim(), projectId, events, format, enabled });
  };
  return (
    <form onSubmit={submit} className="form">
      <label htmlFor={ids.url}>Endpoint URL</label>
      <input id={ids.url} type="url" value={url} onChange={(event) => setUrl(event.target.value)} required placeholder="https://example.com/hooks/feedback" />
      <label htmlFor={ids.description}>Description (optional)</label>
      <input id={ids.description} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={255} />
      <label htmlFor={ids.project}>Project</label>
      <select id={ids.project} value={projectId} onChange={(event) => setProjectId(event.target.value)}>
        <option value="">All projects</option>
        {projects.data?.map((project) => (
          <option key={project.id} value={project.id}>
            {project.name}
          </option>
        ))}
      </select>
      <fieldset className="checkboxes">
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(event) => setEvents((current) => (event.target.checked ? [...current, type] : current.filter((value) => value !== type)))}
            />
            <span>
              {EVENT_LABELS[type]} <code>{type}</code>
            </span>
          </label>
        ))}
      </fieldset>
      <label htmlFor={ids.format}>Format</label>
      <select id={ids.format} value={format} onChange={(event) => setFormat(event.target.value as WebhookFormat)}>
        {FORMATS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <label className="checkbox">
        <input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} /> Enabled
      </label>
      <div className="dialog-actions">
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="primary" disabled={props.busy || url.trim() === '' || events.length === 0}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}

export function webhookName(webhook: Pick<Webhook, 'description' | 'url'>): string {
  if (webhook.description) return webhook.description;
  try {
    return new URL(webhook.url).host;
  } catch {
    return webhook.url;
  }
}
