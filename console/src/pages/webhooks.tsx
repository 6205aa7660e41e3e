import { useState } from 'react';
import { Link } from 'wouter';
import type { Webhook } from '@feedback-service/client';
import { Dialog } from '../components/dialog';
import { type Column, ListTable } from '../components/list-table';
import { LoadMore } from '../components/load-more';
import { Page } from '../components/page';
import { SecretOnce, type SecretWording } from '../components/secret-once';
import { ChangeError, Empty, errorMessage, Loading, OperationError } from '../components/states';
import { eventsLabel, type WebhookFields, WebhookForm, webhookName } from '../components/webhook-form';
import { loadedItems } from '../data/paging';
import { useProject } from '../data/projects';
import { useCreateWebhook, useSaveWebhook, useWebhooks } from '../data/webhooks';

/** How a webhook's signing secret is shown, on creation and on rotation. */
export const SIGNING_SECRET: SecretWording = {
  explanation: 'This signing secret is shown only now. Copy it into your receiver to verify the signatures of deliveries.',
  label: 'Signing secret',
  what: 'the signing secret',
  testId: 'webhook-secret',
};

function CreateWebhookDialog(props: { open: boolean; onClose: () => void }) {
  const create = useCreateWebhook();
  const close = () => {
    create.reset();
    props.onClose();
  };
  return (
    <Dialog open={props.open} title={create.data ? 'Webhook created' : 'New webhook'} onClose={close}>
      {create.data ? (
        <SecretOnce {...SIGNING_SECRET} secret={create.data.secret} onDone={close} />
      ) : (
        <>
          <WebhookForm
            submitLabel="Create webhook"
            busy={create.isPending}
            onSubmit={({ description, projectId, ...fields }: WebhookFields) =>
              create.mutate({ ...fields, description: description || undefined, projectId: projectId || undefined })
            }
            onCancel={close}
          />
          <ChangeError error={create.error} />
        </>
      )}
    </Dialog>
  );
}

/** Whose events a webhook receives: one project's (by name, linked), or all projects'. */
function ProjectScope(props: { projectId: string | undefined }) {
  const project = useProject(props.projectId);
  if (props.projectId === undefined) return <>All projects</>;
  if (project.data) return <Link href={`/projects/${project.data.id}`}>{project.data.name}</Link>;
  if (project.error)
    return (
      <>
        <code>{props.projectId}</code> <span className="muted small">{errorMessage(project.error)}</span>
      </>
    );
  return <span className="muted">…</span>;
}

function EnabledToggle(props: { webhook: Webhook }) {
  const toggle = useSaveWebhook(props.webhook.id);
  return (
    <>
      <button
        type="button"
        className="small"
        onClick={() => toggle.mutate({ enabled: !props.webhook.enabled })}
        disabled={toggle.isPending}
        aria-label={`${props.webhook.enabled ? 'Disable' : 'Enable'} ${webhookName(props.webhook)}`}
      >
        {props.webhook.enabled ? 'Disable' : 'Enable'}
      </button>
      {toggle.error && (
        <span className="error" role="alert">
          {errorMessage(toggle.error)}
        </span>
      )}
    </>
  );
}

const COLUMNS: Column<Webhook>[] = [
  {
    header: 'Webhook',
    cell: (webhook) => (
      <>
        <Link href={`/webhooks/${webhook.id}`}>{webhookName(webhook)}</Link>
        <div className="muted small break">{webhook.url}</div>
      </>
    ),
  },
  { header: 'Project', cell: (webhook) => <ProjectScope projectId={webhook.projectId} /> },
  { header: 'Events', cell: (webhook) => eventsLabel(webhook.events) },
  { header: 'Format', cell: (webhook) => webhook.format },
  {
    header: 'State',
    cell: (webhook) => (
      <>
        <span className={`state ${webhook.enabled ? 'state-active' : 'state-inactive'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>
        {webhook.disabledReason && <div className="muted small">{webhook.disabledReason}</div>}
      </>
    ),
  },
  { header: 'Actions', hiddenHeader: true, cell: (webhook) => <EnabledToggle webhook={webhook} /> },
];

export default function WebhooksPage() {
  const [creating, setCreating] = useState(false);
  const webhooks = useWebhooks();
  return (
    <Page
      title="Webhooks"
      subtitle="Send each new response to your own endpoint, Slack or Discord as it arrives."
      actions={
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New webhook
        </button>
      }
    >
      {webhooks.error ? (
        <OperationError error={webhooks.error} feature="Webhooks" retry={() => void webhooks.refetch()} />
      ) : !webhooks.data ? (
        <Loading what="webhooks" />
      ) : (
        <ListTable
          caption="Webhooks"
          columns={COLUMNS}
          rows={loadedItems(webhooks.data)}
          rowKey={(webhook) => webhook.id}
          rowData={(webhook) => ({ 'data-webhook': webhook.id })}
          empty={<Empty title="No webhooks yet">Create one to be told of every response as it arrives.</Empty>}
        />
      )}
      <LoadMore hasMore={webhooks.hasNextPage} onMore={() => void webhooks.fetchNextPage()} />
      <CreateWebhookDialog open={creating} onClose={() => setCreating(false)} />
    </Page>
  );
}
