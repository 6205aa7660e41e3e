/**
 * The account's audit log (admin): every call by a key that changed or tried to change
 * something, newest first, with filters on the operation, a target id and the days, and
 * "Load more" through the cursor. Entries hold ids only, never names or values.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { AuditListModel } from '@feedback-service/client';
import { Page } from '../components/page';
import { Loading, OperationError } from '../components/states';
import { formatDateTime } from '../lib/format';
import { useSession } from '../session';

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

function serverQuery(filters: Filters): Omit<AuditListModel, '$size' | 'cursor'> {
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
      <div className="field">
        <label htmlFor={ids.from}>From</label>
        <input id={ids.from} type="date" value={draft.from} max={draft.to || undefined} onChange={(event) => update({ from: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={ids.to}>To</label>
        <input id={ids.to} type="date" value={draft.to} min={draft.from || undefined} onChange={(event) => update({ to: event.target.value })} />
      </div>
      <div className="field">
        <button type="submit">Apply filters</button>
      </div>
    </form>
  );
}

export default function AuditPage() {
  const { client } = useSession();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const query = serverQuery(filters);
  const entries = useInfiniteQuery({
    queryKey: ['audit', query],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => client.audit.list({ $size: 50, ...query, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (last) => last.cursor,
  });
  const items = entries.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Page title="Audit log" subtitle="Every change made with an API key, and every refused attempt, newest first. Entries are kept 400 days.">
      <FilterForm filters={filters} onApply={setFilters} />
      {entries.error ? (
        <OperationError error={entries.error} feature="Reading the audit log" retry={() => void entries.refetch()} />
      ) : !entries.data ? (
        <Loading what="the audit log" />
      ) : items.length === 0 ? (
        <p className="muted">No entries{query.operation || query.targetId || query.from || query.to ? ' match these filters' : ' yet'}.</p>
      ) : (
        <div className="table-scroll">
          <table className="list-table">
            <caption className="visually-hidden">Audit log</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Operation</th>
                <th scope="col">Targets</th>
                <th scope="col">Key</th>
                <th scope="col">Address</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={entry.id} data-entry={entry.id}>
                  <th scope="row">{formatDateTime(entry.at)}</th>
                  <td>
                    <code>{entry.operation}</code>
                  </td>
                  <td>
                    {entry.targetIds.length === 0 ? (
                      <span className="muted">–</span>
                    ) : (
                      entry.targetIds.map((id) => (
                        <code key={id} className="audit-target">
                          {id}
                        </code>
                      ))
                    )}
                  </td>
                  <td>
                    {entry.actor.type === 'key' ? (
                      <>
                        {entry.actor.label ?? <span className="muted">(no label)</span>} <code>{entry.actor.keyId}</code>
                      </>
                    ) : (
                      <>
                        {entry.actor.name ?? entry.actor.email ?? <span className="muted">(a member)</span>} <code>{entry.actor.memberId}</code>
                      </>
                    )}
                  </td>
                  <td>{entry.sourceIp ?? '–'}</td>
                  <td>
                    <span className={`state ${entry.outcome === 'ok' ? 'state-active' : 'state-revoked'}`}>{entry.outcome}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entries.hasNextPage && (
        <button type="button" className="load-more" onClick={() => void entries.fetchNextPage()}>
          Load more
        </button>
      )}
    </Page>
  );
}
