import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ApiKeyInfo } from '@feedback-service/client';
import { ConfirmDialog, Dialog, FormActions } from '../components/dialog';
import { Page } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { Loading, OperationError } from '../components/states';
import { formatDateTime } from '../lib/format';
import { type KeyLevel, useSession } from '../session';

function CreateKeyDialog(props: { open: boolean; onClose: () => void }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [level, setLevel] = useState<KeyLevel>('viewer');
  const [label, setLabel] = useState('');
  const ids = { level: useId(), label: useId() };
  const create = useMutation({
    mutationFn: () => client.keys.create({ level, ...(label.trim() ? { label: label.trim() } : {}) }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['keys'] }),
  });
  const close = () => {
    create.reset();
    setLabel('');
    props.onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Dialog open={props.open} title={create.data ? 'Your new API key' : 'New API key'} onClose={close}>
      {create.data ? (
        <SecretOnce
          explanation="This is the only time the key is shown: copy it now and keep it on your servers. The console stores only its id."
          label={`API key (${create.data.level})`}
          what="the API key"
          testId="new-key"
          secret={create.data.key}
          onDone={close}
        />
      ) : (
        <form onSubmit={submit} className="form">
          <label htmlFor={ids.level}>Level</label>
          <select id={ids.level} value={level} onChange={(event) => setLevel(event.target.value as KeyLevel)}>
            <option value="viewer">Viewer: reads statistics and responses</option>
            <option value="admin">Admin: also creates, changes and erases</option>
          </select>
          <label htmlFor={ids.label}>Label (optional)</label>
          <input id={ids.label} value={label} onChange={(event) => setLabel(event.target.value)} maxLength={200} placeholder="e.g. weekly report script" />
          <FormActions error={create.error} submitLabel="Create key" disabled={create.isPending} onCancel={close} />
        </form>
      )}
    </Dialog>
  );
}

export default function KeysPage() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyInfo | undefined>();
  const keys = useInfiniteQuery({
    queryKey: ['keys'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => client.keys.list({ $size: 50, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (last) => last.cursor,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => client.keys.revoke(id),
    onSuccess: () => {
      setRevoking(undefined);
      void queryClient.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  const items = keys.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Page
      title="API keys"
      subtitle="Keys let your servers and this console read and manage the account. Widgets need none."
      actions={
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New API key
        </button>
      }
    >
      {keys.error ? (
        <OperationError error={keys.error} feature="Managing API keys" retry={() => void keys.refetch()} />
      ) : !keys.data ? (
        <Loading what="API keys" />
      ) : (
        <div className="table-scroll">
          <table className="list-table">
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Level</th>
                <th scope="col">Id</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((key) => (
                <tr key={key.id} data-key={key.id}>
                  <th scope="row">{key.label ?? <span className="muted">(no label)</span>}</th>
                  <td>{key.level}</td>
                  <td>
                    <code>{key.id}</code>
                  </td>
                  <td>{formatDateTime(key.createdAt)}</td>
                  <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : '–'}</td>
                  <td>
                    {key.revokedAt ? (
                      <span className="state state-revoked">revoked {formatDateTime(key.revokedAt)}</span>
                    ) : (
                      <span className="state state-active">active</span>
                    )}
                  </td>
                  <td>
                    {!key.revokedAt && (
                      <button type="button" className="danger small" onClick={() => setRevoking(key)} aria-label={`Revoke key ${key.label ?? key.id}`}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {keys.hasNextPage && (
        <button type="button" className="load-more" onClick={() => void keys.fetchNextPage()}>
          Load more
        </button>
      )}
      {revoke.error && <OperationError error={revoke.error} feature="Revoking API keys" />}
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke ${revoking?.label ?? revoking?.id ?? ''}?`}
        confirmLabel="Revoke key"
        danger
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onClose={() => setRevoking(undefined)}
      >
        <p>Every request with this {revoking?.level} key is refused from now on. If you signed in with it, the console signs you out.</p>
      </ConfirmDialog>
    </Page>
  );
}
