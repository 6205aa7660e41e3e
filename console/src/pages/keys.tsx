import { useId, useState, type FormEvent } from 'react';
import type { ApiKeyInfo } from '@feedback-service/client';
import { ActorName } from '../components/actor';
import { ConfirmDialog, Dialog, FormActions } from '../components/dialog';
import { type Column, ListTable } from '../components/list-table';
import { LoadMore } from '../components/load-more';
import { Page } from '../components/page';
import { SecretOnce } from '../components/secret-once';
import { Loading, OperationError } from '../components/states';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../data/api-keys';
import { loadedItems } from '../data/paging';
import { formatDateTime } from '../lib/format';
import type { KeyLevel } from '../session';

function CreateKeyDialog(props: { open: boolean; onClose: () => void }) {
  const [level, setLevel] = useState<KeyLevel>('viewer');
  const [label, setLabel] = useState('');
  const ids = { level: useId(), label: useId() };
  const create = useCreateApiKey();
  const close = () => {
    create.reset();
    setLabel('');
    props.onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ level, ...(label.trim() ? { label: label.trim() } : {}) });
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
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyInfo | undefined>();
  const keys = useApiKeys();
  const revoke = useRevokeApiKey({ onSuccess: () => setRevoking(undefined) });
  const columns: Column<ApiKeyInfo>[] = [
    { header: 'Label', cell: (key) => key.label ?? <span className="muted">(no label)</span> },
    { header: 'Level', cell: (key) => key.level },
    { header: 'Id', cell: (key) => <code>{key.id}</code> },
    { header: 'Created', cell: (key) => formatDateTime(key.createdAt) },
    { header: 'Created by', cell: (key) => <ActorName actor={key.createdBy} /> },
    { header: 'Last used', cell: (key) => (key.lastUsedAt ? formatDateTime(key.lastUsedAt) : '–') },
    {
      header: 'State',
      cell: (key) =>
        key.revokedAt ? (
          <span className="state state-revoked">revoked {formatDateTime(key.revokedAt)}</span>
        ) : (
          <span className="state state-active">active</span>
        ),
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (key) =>
        !key.revokedAt && (
          <button type="button" className="danger small" onClick={() => setRevoking(key)} aria-label={`Revoke key ${key.label ?? key.id}`}>
            Revoke
          </button>
        ),
    },
  ];
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
        <ListTable caption="API keys" columns={columns} rows={loadedItems(keys.data)} rowKey={(key) => key.id} rowData={(key) => ({ 'data-key': key.id })} />
      )}
      <LoadMore hasMore={keys.hasNextPage} onMore={() => void keys.fetchNextPage()} />
      {revoke.error && <OperationError error={revoke.error} feature="Revoking API keys" retry={null} />}
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
        <p>
          Every request with this {revoking?.level} key is refused from now on, and so is every key it created (and their pending invitations). If you signed in
          with it, the console signs you out.
        </p>
      </ConfirmDialog>
    </Page>
  );
}
