import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { Webhook } from '@feedback-service/client';
import { Dialog } from '../components/dialog';
import { Page } from '../components/page';
import { SecretOnce, type SecretWording } from '../components/secret-once';
import { errorMessage, Loading, OperationError } from '../components/states';
import { eventsLabel, type WebhookFields, WebhookForm, webhookName } from '../components/webhook-form';
import { useProject } from '../lib/queries';
import { useSession } from '../session';

/** How a webhook's signing secret is shown, on creation and on rotation. */
export const SIGNING_SECRET: SecretWording = {
  explanation: 'This signing secret is shown only now. Copy it into your receiver to verify the signatures of deliveries.',
  label: 'Signing secret',
  what: 'the signing secret',
  testId: 'webhook-secret',
};

function CreateWebhookDialog(props: { open: boolean; onClose: () => void }) {
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: ({ description, projectId, ...fields }: WebhookFields) =>
      webhooks.create({ ...fields, description: description || undefined, projectId: projectId || undefined }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
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
          <WebhookForm submitLabel="Create webhook" busy={create.isPending} onSubmit={(input) => create.mutate(input)} onCancel={close} />
          {create.error && (
            <p className="error" role="alert">
              {errorMessage(create.error)}
            </p>
          )}
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
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => webhooks.save(props.webhook.id, { enabled: !props.webhook.enabled }),
    onSuccess: (saved) => {
      queryClient.setQueryData(['webhook', saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  return (
    <>
      <button
        type="button"
        className="small"
        onClick={() => toggle.mutate()}
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

export default function WebhooksPage() {
  const resource = useSession().client.webhooks;
  const [creating, setCreating] = useState(false);
  const webhooks = useInfiniteQuery({
    queryKey: ['webhooks'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => resource.list({ $size: 50, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (last) => last.cursor,
  });
  const items = webhooks.data?.pages.flatMap((page) => page.items) ?? [];
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
      ) : items.length === 0 ? (
        <div className="empty">
          <p className="empty-title">No webhooks yet</p>
          <p>Create one to be told of every response as it arrives.</p>
        </div>
      ) : (
        <div className="table-scroll">
          <table className="list-table">
            <caption className="visually-hidden">Webhooks</caption>
            <thead>
              <tr>
                <th scope="col">Webhook</th>
                <th scope="col">Project</th>
                <th scope="col">Events</th>
                <th scope="col">Format</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((webhook) => (
                <tr key={webhook.id} data-webhook={webhook.id}>
                  <th scope="row">
                    <Link href={`/webhooks/${webhook.id}`}>{webhookName(webhook)}</Link>
                    <div className="muted small break">{webhook.url}</div>
                  </th>
                  <td>
                    <ProjectScope projectId={webhook.projectId} />
                  </td>
                  <td>{eventsLabel(webhook.events)}</td>
                  <td>{webhook.format}</td>
                  <td>
                    <span className={`state ${webhook.enabled ? 'state-active' : 'state-inactive'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>
                    {webhook.disabledReason && <div className="muted small">{webhook.disabledReason}</div>}
                  </td>
                  <td>
                    <EnabledToggle webhook={webhook} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {webhooks.hasNextPage && (
        <button type="button" className="load-more" onClick={() => void webhooks.fetchNextPage()}>
          Load more
        </button>
      )}
      <CreateWebhookDialog open={creating} onClose={() => setCreating(false)} />
    </Page>
  );
}
