/**
 * The account's audit log (admin): every call by a key or a member that changed or tried
 * to change something (and the key CLI's changes), newest first, with filters on the
 * operation, a target id and the days, and "Load more" through the cursor. Entries hold
 * ids only, never names or values; a flood of refused calls shows as one row per
 * operation and minute with its count.
 */
import { useId, useState, type FormEvent } from 'react';
import type { AuditEntry } from '@feedback-service/client';
import { ActorName } from '../components/actor';
import { DateField } from '../components/date-field';
import { type Column, ListTable } from '../components/list-table';
import { LoadMore } from '../components/load-more';
import { Page } from '../components/page';
import { Loading, OperationError } from '../components/states';
import { formatDateTime } from '../lib/format';
import { type AuditQuery, useAuditEntries } from '../data/audit';
import { loadedItems } from '../data/paging';

interface Filters {
  operation: string;
  targetId: string;
  /** Local days, as date inputs name them ('' for none). */
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { operation: '', targetId: '', from: '', to: '' };

/** The start of a day in the viewer's time zone, as ISO. */
function dayStart(day: string, plusDays = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date + plusDays).toISOString();
}

function serverQuery(filters: Filters): AuditQuery {
  return {
    ...(filters.operation.trim() ? { operation: filters.operation.trim() } : {}),
    ...(filters.targetId.trim() ? { targetId: filters.targetId.trim() } : {}),
    ...(filters.from ? { from: dayStart(filters.from) } : {}),
    // "To" names the last day included; the API's `to` is exclusive.
    ...(filters.to ? { to: dayStart(filters.to, 1) } : {}),
  };
}

function FilterForm(props: { filters: Filters; onApply: (filters: Filters) => void }) {
  const ids = { operation: useId(), targetId: useId(), from: useId(), to: useId() };
  const [draft, setDraft] = useState(props.filters);
  const update = (patch: Partial<Filters>) => setDraft({ ...draft, ...patch });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onApply(draft);
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Filter the audit log">
      <div className="field">
        <label htmlFor={ids.operation}>Operation</label>
        <input id={ids.operation} value={draft.operation} placeholder="e.g. projects/create" onChange={(event) => update({ operation: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={ids.targetId}>Target id</label>
        <input id={ids.targetId} value={draft.targetId} onChange={(event) => update({ targetId: event.target.value })} />
      </div>
      <DateField id={ids.from} label="From" value={draft.from} onChange={(from) => update({ from })} />
      <DateField id={ids.to} label="To" value={draft.to} onChange={(to) => update({ to })} />
      <div className="field">
        <button type="submit">Apply filters</button>
      </div>
    </form>
  );
}

const AUDIT_COLUMNS: Column<AuditEntry>[] = [
  { header: 'When', cell: (entry) => formatDateTime(entry.at) },
  { header: 'Operation', cell: (entry) => <code>{entry.operation}</code> },
  {
    header: 'Targets',
    cell: (entry) =>
      entry.targetIds.length === 0 ? (
        <span className="muted">–</span>
      ) : (
        entry.targetIds.map((id) => (
          <code key={id} className="audit-target">
            {id}
          </code>
        ))
      ),
  },
  { header: 'Who', cell: (entry) => <ActorName actor={entry.actor} /> },
  { header: 'Address', cell: (entry) => entry.sourceIp ?? '–' },
  {
    header: 'Outcome',
    cell: (entry) => (
      <>
        <span className={`state ${entry.outcome === 'ok' ? 'state-active' : 'state-revoked'}`}>{entry.outcome}</span>
        {entry.count !== undefined && (
          <span className="audit-count">
            {' '}
            {entry.count} more refused call{entry.count === 1 ? '' : 's'} in this minute
          </span>
        )}
      </>
    ),
  },
];

export default function AuditPage() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const query = serverQuery(filters);
  const entries = useAuditEntries(query);
  const items = loadedItems(entries.data);
  return (
    <Page title="Audit log" subtitle="Every change made with an API key or by a member, and every refused attempt, newest first. Entries are kept 400 days.">
      <FilterForm filters={filters} onApply={setFilters} />
      {entries.error ? (
        <OperationError error={entries.error} feature="Reading the audit log" retry={() => void entries.refetch()} />
      ) : !entries.data ? (
        <Loading what="the audit log" />
      ) : items.length === 0 ? (
        <p className="muted">No entries{query.operation || query.targetId || query.from || query.to ? ' match these filters' : ' yet'}.</p>
      ) : (
        <ListTable caption="Audit log" columns={AUDIT_COLUMNS} rows={items} rowKey={(entry) => entry.id} rowData={(entry) => ({ 'data-entry': entry.id })} />
      )}
      <LoadMore hasMore={entries.hasNextPage} onMore={() => void entries.fetchNextPage()} busy={entries.isFetchingNextPage} />
    </Page>
  );
}
