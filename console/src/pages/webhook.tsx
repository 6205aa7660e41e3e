import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import type { Delivery } from '@feedback-service/client';
import { ConfirmDialog, Dialog } from '../components/dialog';
import { Page, PageState, Section } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { errorMessage, Loading, OperationError } from '../components/states';
import { type WebhookFields, WebhookForm, webhookName } from '../components/webhook-form';
import { formatDateTime, plural } from '../lib/format';
import { useReadOn } from '../lib/read-on';
import { useSession } from '../session';
import { SIGNING_SECRET } from './webhooks';

type DeliveryStatus = Delivery['status'];

const DELIVERY_PAGE_SIZE = 25;

function Deliveries(props: { webhookId: string }) {
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const statusId = useId();
  const deliveries = useInfiniteQuery({
    queryKey: ['deliveries', props.webhookId, status],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      webhooks.deliveries({
        webhookId: props.webhookId,
        $size: DELIVERY_PAGE_SIZE,
        ...(status ? { status } : {}),
        ...(pageParam ? { cursor: pageParam } : {}),
      }),
    getNextPageParam: (last) => last.cursor,
    refetchInterval: 5000,
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) => webhooks.redeliver(deliveryId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['deliveries', props.webhookId] }),
  });
  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? [];
  const readOn = useReadOn(deliveries, items.length, DELIVERY_PAGE_SIZE, status);
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
      {redeliver.error && <OperationError error={redeliver.error} feature="Redelivery" />}
      {deliveries.error ? (
        <OperationError error={deliveries.error} feature="The delivery log" />
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
        <div className="table-scroll">
          <table className="list-table" data-testid="deliveries">
            <caption className="visually-hidden">Delivery log</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col" className="number">
                  Attempts
                </th>
                <th scope="col">Last answer</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((delivery) => (
                <tr key={delivery.id} data-delivery={delivery.id}>
                  <th scope="row">{formatDateTime(delivery.createdAt)}</th>
                  <td>
                    <code>{delivery.eventType}</code>
                  </td>
                  <td>
                    <span className={`state delivery-${delivery.status}`}>{delivery.status}</span>
                    {delivery.nextAttemptAt && <div className="muted small">next try {formatDateTime(delivery.nextAttemptAt)}</div>}
                  </td>
                  <td className="number">{delivery.attempts}</td>
                  <td>
                    {delivery.lastStatusCode !== undefined && <code>HTTP {delivery.lastStatusCode}</code>}{' '}
                    {delivery.lastError && <span className="muted">{delivery.lastError}</span>}
                  </td>
                  <td>
                    {delivery.status !== 'pending' && (
                      <button type="button" className="small" onClick={() => redeliver.mutate(delivery.id)} disabled={redeliver.isPending}>
                        Redeliver
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deliveries.hasNextPage && (
        <button type="button" className="load-more" onClick={readOn.more} disabled={readOn.searching}>
          {readOn.searching ? 'Loading…' : readOn.paused ? 'Keep searching' : 'Load more'}
        </button>
      )}
    </>
  );
}

export default function WebhookPage(props: { webhookId: string }) {
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [rotating, setRotating] = useState(false);
  const webhook = useQuery({ queryKey: ['webhook', props.webhookId], queryFn: () => webhooks.get(props.webhookId) });
  const save = useMutation({
    mutationFn: (changes: Parameters<typeof webhooks.save>[1]) => webhooks.save(props.webhookId, changes),
    onSuccess: (saved) => {
      queryClient.setQueryData(['webhook', saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      setEditing(false);
    },
  });
  const test = useMutation({
    mutationFn: () => webhooks.test(props.webhookId),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['deliveries', props.webhookId] }),
  });
  const rotate = useMutation({ mutationFn: () => webhooks.rotateSecret(props.webhookId) });
  const remove = useMutation({
    mutationFn: () => webhooks.remove(props.webhookId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      navigate('/webhooks');
    },
  });
  const crumbs = [{ label: 'Webhooks', href: '/webhooks' }];
  if (webhook.error)
    return (
      <PageState title="Webhook" crumbs={crumbs}>
        <OperationError error={webhook.error} feature="Webhooks" />
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
      {test.error && <OperationError error={test.error} feature="Testing webhooks" />}
      {save.error && !editing && <OperationError error={save.error} feature="Webhooks" />}
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
        {save.error && editing && (
          <p className="error" role="alert">
            {errorMessage(save.error)}
          </p>
        )}
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
            {rotate.error && (
              <p className="error" role="alert">
                {errorMessage(rotate.error)}
              </p>
            )}
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
        onConfirm={() => remove.mutate()}
        onClose={() => setRemoving(false)}
      >
        <p>Its pending deliveries are dropped and nothing more is sent to {data.url}.</p>
        {remove.error && (
          <p className="error" role="alert">
            {errorMessage(remove.error)}
          </p>
        )}
      </ConfirmDialog>
    </Page>
  );
}
