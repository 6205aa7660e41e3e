import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import type { Delivery } from '@feedback-service/client';
import { ConfirmDialog, Dialog } from '../components/dialog';
import { type Column, ListTable } from '../components/list-table';
import { LoadMore } from '../components/load-more';
import { Page, PageState, Section } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { ChangeError, Loading, OperationError } from '../components/states';
import { type WebhookFields, WebhookForm, webhookName } from '../components/webhook-form';
import { loadedItems } from '../data/paging';
import {
  type DeliveryStatus,
  useDeliveries,
  useRedeliver,
  useRemoveWebhook,
  useRotateWebhookSecret,
  useSaveWebhook,
  useTestWebhook,
  useWebhook,
} from '../data/webhooks';
import { formatDateTime, plural } from '../lib/format';
import { useReadOn } from '../lib/read-on';
import { SIGNING_SECRET } from './webhooks';

const DELIVERY_PAGE_SIZE = 25;

function Deliveries(props: { webhookId: string }) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const statusId = useId();
  const deliveries = useDeliveries(props.webhookId, status, DELIVERY_PAGE_SIZE);
  const redeliver = useRedeliver(props.webhookId);
  const items = loadedItems(deliveries.data);
  const readOn = useReadOn(deliveries, items.length, DELIVERY_PAGE_SIZE, status);
  const columns: Column<Delivery>[] = [
    { header: 'When', cell: (delivery) => formatDateTime(delivery.createdAt) },
    { header: 'Event', cell: (delivery) => <code>{delivery.eventType}</code> },
    {
      header: 'Status',
      cell: (delivery) => (
        <>
          <span className={`state delivery-${delivery.status}`}>{delivery.status}</span>
          {delivery.nextAttemptAt && <div className="muted small">next try {formatDateTime(delivery.nextAttemptAt)}</div>}
        </>
      ),
    },
    { header: 'Attempts', number: true, cell: (delivery) => delivery.attempts },
    {
      header: 'Last answer',
      cell: (delivery) => (
        <>
          {delivery.lastStatusCode !== undefined && <code>HTTP {delivery.lastStatusCode}</code>}{' '}
          {delivery.lastError && <span className="muted">{delivery.lastError}</span>}
        </>
      ),
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (delivery) =>
        delivery.status !== 'pending' && (
          <button type="button" className="small" onClick={() => redeliver.mutate(delivery.id)} disabled={redeliver.isPending}>
            Redeliver
          </button>
        ),
    },
  ];
  return (
    <>
      <div className="toolbar">
        <label htmlFor={statusId} className="inline-label">
          Status
        </label>
        <select id={statusId} value={status} onChange={(event) => setStatus(event.target.value as DeliveryStatus | '')}>
          <option value="">All</option>
          <option value="pending">Pending</option>
          <option value="succeeded">Succeeded</option>
          <option value="failed">Failed</option>
        </select>
      </div>
      {redeliver.error && <OperationError error={redeliver.error} feature="Redelivery" retry={null} />}
      {deliveries.error ? (
        <OperationError error={deliveries.error} feature="The delivery log" retry={() => void deliveries.refetch()} />
      ) : !deliveries.data ? (
        <Loading what="deliveries" />
      ) : items.length === 0 && !deliveries.hasNextPage ? (
        <p className="muted">{status ? `No ${status} deliveries.` : 'No deliveries yet. Send a test to see one here.'}</p>
      ) : items.length === 0 ? (
        <p className="muted" role="status">
          {readOn.searching
            ? `No ${status} deliveries among the newest; searching older ones…`
            : `No ${status} deliveries in ${plural(readOn.pages, 'page')} read; older ones may match.`}
        </p>
      ) : (
        <ListTable
          caption="Delivery log"
          testId="deliveries"
          columns={columns}
          rows={items}
          rowKey={(delivery) => delivery.id}
          rowData={(delivery) => ({ 'data-delivery': delivery.id })}
        />
      )}
      <LoadMore hasMore={deliveries.hasNextPage} onMore={readOn.more} busy={readOn.searching} paused={readOn.paused} />
    </>
  );
}

export default function WebhookPage(props: { webhookId: string }) {
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [rotating, setRotating] = useState(false);
  const webhook = useWebhook(props.webhookId);
  const save = useSaveWebhook(props.webhookId, { onSuccess: () => setEditing(false) });
  const test = useTestWebhook(props.webhookId);
  const rotate = useRotateWebhookSecret(props.webhookId);
  const remove = useRemoveWebhook(props.webhookId, { onSuccess: () => navigate('/webhooks') });
  const crumbs = [{ label: 'Webhooks', href: '/webhooks' }];
  if (webhook.error)
    return (
      <PageState title="Webhook" crumbs={crumbs}>
        <OperationError error={webhook.error} feature="Webhooks" retry={() => void webhook.refetch()} />
      </PageState>
    );
  if (!webhook.data)
    return (
      <PageState title="Webhook" crumbs={crumbs}>
        <Loading what="webhook" />
      </PageState>
    );
  const data = webhook.data;
  return (
    <Page
      title={webhookName(data)}
      kicker="Webhook"
      crumbs={crumbs}
      subtitle={
        <>
          <span className={`state ${data.enabled ? 'state-active' : 'state-inactive'}`}>{data.enabled ? 'enabled' : 'disabled'}</span>{' '}
          <code className="break">{data.url}</code>
          {data.disabledReason && <span className="muted"> {data.disabledReason}</span>}
        </>
      }
      actions={
        <>
          <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
            {test.isPending ? 'Sending…' : 'Send test'}
          </button>
          <button type="button" onClick={() => save.mutate({ enabled: !data.enabled })} disabled={save.isPending}>
            {data.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button type="button" onClick={() => setRotating(true)}>
            Rotate secret
          </button>
          <button type="button" className="danger" onClick={() => setRemoving(true)}>
            Remove
          </button>
        </>
      }
    >
      {test.data && (
        <p role="status" className={test.data.status === 'succeeded' ? 'success' : 'error'} data-testid="test-result">
          Test {test.data.status}
          {test.data.statusCode !== undefined ? ` with HTTP ${test.data.statusCode}` : ''}
          {test.data.error ? `: ${test.data.error}` : ''}
          {test.data.durationMs ? ` in ${test.data.durationMs} ms` : ''}.
        </p>
      )}
      {test.error && <OperationError error={test.error} feature="Testing webhooks" retry={null} />}
      {save.error && !editing && <OperationError error={save.error} feature="Webhooks" retry={null} />}
      <Section title="Delivery log">
        <Deliveries webhookId={data.id} />
      </Section>
      <Dialog open={editing} title="Edit webhook" onClose={() => setEditing(false)}>
        {editing && (
          <WebhookForm
            initial={data}
            submitLabel="Save"
            busy={save.isPending}
            onSubmit={({ description, projectId, ...fields }: WebhookFields) =>
              save.mutate({ ...fields, description: description || null, projectId: projectId || null })
            }
            onCancel={() => setEditing(false)}
          />
        )}
        {editing && <ChangeError error={save.error} />}
      </Dialog>
      <Dialog
        open={rotating}
        title="Rotate the signing secret"
        onClose={() => {
          rotate.reset();
          setRotating(false);
        }}
      >
        {rotate.data ? (
          <SecretOnce
            {...SIGNING_SECRET}
            secret={rotate.data.secret}
            onDone={() => {
              rotate.reset();
              setRotating(false);
            }}
          />
        ) : (
          <>
            <p>
              A new secret signs deliveries from now on; for 24 hours they also carry a signature with the current one, so you can switch your receiver without
              losing any.
            </p>
            <ChangeError error={rotate.error} />
            <div className="dialog-actions">
              <button type="button" onClick={() => setRotating(false)}>
                Cancel
              </button>
              <button type="button" className="primary" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
                Rotate secret
              </button>
            </div>
          </>
        )}
      </Dialog>
      <ConfirmDialog
        open={removing}
        title={`Remove ${webhookName(data)}?`}
        confirmLabel="Remove webhook"
        danger
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate()}
        onClose={() => setRemoving(false)}
      >
        <p>Its pending deliveries are dropped and nothing more is sent to {data.url}.</p>
      </ConfirmDialog>
    </Page>
  );
}
