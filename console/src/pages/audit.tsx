/**
 * The account's audit log (admin): every call by a key or a member that changed or tried
 * to change something (and the key CLI's changes), newest first, one line an entry on a
 * desktop and a card on a phone. Entries hold ids only; the page names them: who by the
 * member's name or the key's label, targets by the name of what they are (a project, set,
 * item, key, webhook's host, member, invitation), linked, with the id on hover. Filters by
 * person or key, operation, outcome, target (typed, or a row's target's "only") and days,
 * "Load more" through the cursor, and exports
 * (CSV, NDJSON) of what the filters select. A flood of refused calls shows as one row per
 * operation and minute with its count.
 */
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import { type Actor, type AuditEntry, type ExportChunk, OPERATIONS } from '@feedback-service/client';
import { DateField } from '../components/date-field';
import { type Column, ListTable } from '../components/list-table';
import { LoadMore } from '../components/load-more';
import { Page } from '../components/page';
import { Loading, OperationError, errorMessage } from '../components/states';
import { useApiKeys } from '../data/api-keys';
import { type AuditQuery, useAuditEntries } from '../data/audit';
import { useThemeCurationsOf } from '../data/themes';
import { useContentItems } from '../data/contents';
import { useInvitations, useMembers } from '../data/members';
import { loadedItems } from '../data/paging';
import { useProjects } from '../data/projects';
import { useContentSets } from '../data/sets';
import { useWebhooks } from '../data/webhooks';
import { AUDITED_ROUTES, type TargetKind, targetKinds } from '../lib/audit-targets';
import { type ExportProgress, readChunks, saveFile } from '../lib/export';
import { curationWords } from '../lib/themes';
import { dayRangeQuery, formatCount, formatDateTime, plural } from '../lib/format';
import { useSession } from '../session';

interface Filters {
  /** A key id or membership id ('' for anyone). */
  actor: string;
  operation: string;
  outcome: '' | 'ok' | 'refused';
  /** What the entries are about: a project's, set's, item's, key's, member's ... id ('' for anything). */
  targetId: string;
  /** Local days, as date inputs name them ('' for none). */
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { actor: '', operation: '', outcome: '', targetId: '', from: '', to: '' };

/** What writes entries: every changing operation a key or member may call (functions/api/operation.ts `isAudited`), and the unsubscribe link. */
const AUDITED_OPERATIONS = [
  ...Object.entries(OPERATIONS)
    .filter(([, operation]) => !operation.readOnly && operation.level !== 'anonymous')
    .map(([name]) => name),
  ...AUDITED_ROUTES,
].sort();

function serverQuery(filters: Filters): AuditQuery {
  return {
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.operation ? { operation: filters.operation } : {}),
    ...(filters.outcome ? { outcome: filters.outcome } : {}),
    ...(filters.targetId ? { targetId: filters.targetId } : {}),
    ...dayRangeQuery(filters.from, filters.to),
  };
}

/** "27 Nov, 07:55" this year, "27 Nov 2025, 07:55" before; the whole date and time on hover. */
function compactDate(iso: string): string {
  const date = new Date(iso);
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(date.getFullYear() === new Date().getFullYear() ? {} : { year: 'numeric' }),
  });
  return `${day}, ${time}`;
}

interface NamedTarget {
  label: string;
  href?: string;
}

/** An entry's target kinds, with what its curation record (if any) says of its ids. */
type KindsOf = (entry: AuditEntry) => TargetKind[];

/**
 * Names for the ids of the entries shown: from the account's members, invitations, keys and
 * webhooks, the projects, sets and items the entries name (one read each, cached), and the
 * curation records of the sets whose themes were curated (sets/themeCurations, one read a
 * set): a curation in words ("Renamed a theme to “Sizing”") and a theme by the label people
 * gave it, both linked to the set's Why panel.
 */
function useTargetNames(entries: AuditEntry[]): { names: Map<string, NamedTarget>; kindsOf: KindsOf } {
  const members = useMembers();
  const invitations = useInvitations();
  const keys = useApiKeys();
  const webhooks = useWebhooks();
  const { me } = useSession();
  const ofKind = (kind: TargetKind) => [
    ...new Set(
      entries.flatMap((entry) => targetKinds(entry.operation, entry.targetIds).flatMap((found, index) => (found === kind ? [entry.targetIds[index]] : []))),
    ),
  ];
  const projectIds = ofKind('project');
  const projects = useProjects(projectIds);
  const setIds = ofKind('set');
  const itemIds = ofKind('item');
  const sets = useContentSets(setIds);
  const items = useContentItems(itemIds);
  const curatedSetIds = [
    ...new Set(entries.filter((entry) => entry.operation === 'sets/curateThemes' && entry.targetIds[0]).map((entry) => entry.targetIds[0])),
  ];
  const curations = useThemeCurationsOf(curatedSetIds);
  const names = new Map<string, NamedTarget>();
  for (const member of members.data?.items ?? []) names.set(member.id, { label: member.name ?? member.email ?? member.subject, href: '/members' });
  for (const invitation of invitations.data?.items ?? []) names.set(invitation.id, { label: `invitation of ${invitation.email}`, href: '/members' });
  for (const key of loadedItems(keys.data)) names.set(key.id, { label: key.label ?? 'unlabelled key', href: '/keys' });
  for (const webhook of loadedItems(webhooks.data)) names.set(webhook.id, { label: hostOf(webhook.url), href: `/webhooks/${webhook.id}` });
  projects.forEach((result, index) => {
    if (result.data) names.set(projectIds[index], { label: result.data.name, href: `/projects/${projectIds[index]}` });
  });
  sets.forEach((result, index) => {
    if (result.data) names.set(setIds[index], { label: result.data.name, href: `/sets/${setIds[index]}` });
  });
  items.forEach((result, index) => {
    if (result.data) names.set(itemIds[index], { label: result.data.metadata.title || result.data.key, href: `/items/${itemIds[index]}` });
  });
  const records = new Map<string, Record<string, unknown>>();
  curations.forEach((result, index) => {
    const href = `/sets/${curatedSetIds[index]}`;
    // The labels people gave themes (renamed, pinned, split off), oldest record first: each
    // record in words with the labels before it, each theme by its latest.
    const labels = new Map<string, string>();
    for (const { id, record } of result.data ?? []) {
      records.set(id, record);
      names.set(id, { label: curationWords(record, labels), href });
      const themeId = record.kind === 'split' ? record.newThemeId : record.themeId;
      if (typeof themeId === 'string' && typeof record.label === 'string') labels.set(themeId, record.label);
    }
    for (const [themeId, label] of labels) names.set(themeId, { label: `“${label}”`, href });
  });
  if (me) names.set(me.accountId, { label: me.accountName });
  return { names, kindsOf: (entry) => targetKinds(entry.operation, entry.targetIds, entry.targetIds[1] ? records.get(entry.targetIds[1]) : undefined) };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const KIND_NAMES: Record<TargetKind, string> = {
  project: 'project',
  set: 'set',
  item: 'item',
  response: 'response',
  key: 'key',
  webhook: 'webhook',
  delivery: 'delivery',
  member: 'member',
  invitation: 'invitation',
  account: 'account',
  curation: 'curation',
  theme: 'theme',
  unknown: 'id',
};

/** A target in words: "project Docs", "key 3fA9c1…". */
function targetWords(kind: TargetKind, id: string, named: NamedTarget | undefined): string {
  return `${KIND_NAMES[kind]} ${named ? named.label : `${id.slice(0, 6)}…`}`;
}

/** Each target by its name, linked to it, with a button that shows only the entries about it. */
function Targets(props: { entry: AuditEntry; names: Map<string, NamedTarget>; kindsOf: KindsOf; onFilter: (targetId: string) => void }) {
  const { entry, names } = props;
  if (entry.targetIds.length === 0) return <span className="muted">–</span>;
  const kinds = props.kindsOf(entry);
  const parts: ReactNode[] = entry.targetIds.map((id, index) => {
    const named = names.get(id);
    const title = `${KIND_NAMES[kinds[index]]} ${id}`;
    const only = (
      <button
        type="button"
        className="link-button audit-only"
        onClick={() => props.onFilter(id)}
        aria-label={`Only entries about ${targetWords(kinds[index], id, named)}`}
        title={`Only entries about ${title}`}
      >
        only
      </button>
    );
    if (!named) {
      // What no list names any more (removed, erased, or a response): its kind and the id's start.
      return (
        <span key={id} className="audit-target-entry">
          <span className="audit-target muted" title={title}>
            {KIND_NAMES[kinds[index]]} {id.slice(0, 6)}…
          </span>
          {only}
        </span>
      );
    }
    return (
      <span key={id} className="audit-target-entry">
        {named.href ? (
          <Link href={named.href} className="audit-target" title={title}>
            {named.label}
          </Link>
        ) : (
          <span className="audit-target" title={title}>
            {named.label}
          </span>
        )}
        {only}
      </span>
    );
  });
  return <>{parts}</>;
}

/** Who: the member's name (or email) or the key's label; the id on hover. */
function Who(props: { actor: Actor }) {
  const { actor } = props;
  if (actor.type === 'key') {
    return <span title={`API key ${actor.keyId}`}>{actor.label ?? 'unlabelled key'} (key)</span>;
  }
  if (actor.type === 'person') return <span title={`member ${actor.memberId}`}>{actor.name ?? actor.email ?? 'a member'}</span>;
  return <span className="muted">{actor.name} (operator)</span>;
}

function FilterForm(props: { filters: Filters; onApply: (filters: Filters) => void }) {
  const ids = { actor: useId(), operation: useId(), outcome: useId(), target: useId(), from: useId(), to: useId() };
  const [draft, setDraft] = useState(props.filters);
  const members = useMembers();
  const keys = useApiKeys();
  const update = (patch: Partial<Filters>) => setDraft({ ...draft, ...patch });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onApply(draft);
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Filter the audit log">
      <div className="field">
        <label htmlFor={ids.actor}>Person or key</label>
        <select id={ids.actor} value={draft.actor} onChange={(event) => update({ actor: event.target.value })}>
          <option value="">Anyone</option>
          <optgroup label="Members">
            {(members.data?.items ?? []).map((member) => (
              <option key={member.id} value={member.id}>
                {member.name ?? member.email ?? member.subject}
              </option>
            ))}
          </optgroup>
          <optgroup label="API keys">
            {loadedItems(keys.data).map((key) => (
              <option key={key.id} value={key.id}>
                {key.label ?? `unlabelled ${key.level} key`}
                {key.revokedAt ? ' (revoked)' : ''}
              </option>
            ))}
          </optgroup>
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.operation}>Operation</label>
        <select id={ids.operation} value={draft.operation} onChange={(event) => update({ operation: event.target.value })}>
          <option value="">Any</option>
          {AUDITED_OPERATIONS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.outcome}>Outcome</label>
        <select id={ids.outcome} value={draft.outcome} onChange={(event) => update({ outcome: event.target.value as Filters['outcome'] })}>
          <option value="">Any</option>
          <option value="ok">Succeeded</option>
          <option value="refused">Refused</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.target}>Target id</label>
        <input
          id={ids.target}
          value={draft.targetId}
          placeholder="any"
          spellCheck={false}
          onChange={(event) => update({ targetId: event.target.value.trim() })}
        />
      </div>
      <DateField id={ids.from} label="From" value={draft.from} onChange={(from) => update({ from })} />
      <DateField id={ids.to} label="To" value={draft.to} onChange={(to) => update({ to })} />
      <div className="field">
        <button type="submit">Apply filters</button>
      </div>
    </form>
  );
}

/** CSV and NDJSON of what the filters select (audit/export, every chunk), saved as one file; waits while the list failed to load. */
function AuditExport(props: { query: AuditQuery; listFailed: boolean }) {
  const { client } = useSession();
  const [progress, setProgress] = useState<(ExportProgress & { format: ExportChunk['format'] }) | undefined>();
  const [outcome, setOutcome] = useState<string | undefined>();
  const [failure, setFailure] = useState<unknown>();
  const signal = useRef({ cancelled: false });
  const noteId = useId();
  const start = async (format: ExportChunk['format']) => {
    signal.current = { cancelled: false };
    setOutcome(undefined);
    setFailure(undefined);
    setProgress({ rows: 0, chunks: 0, format });
    try {
      const result = await readChunks(
        (cursor) => client.audit.export({ ...props.query, format, ...(cursor ? { cursor } : {}) }),
        (next) => setProgress({ ...next, format }),
        signal.current,
      );
      if (result) {
        const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
        saveFile(result.parts, `audit-${stamp}.${format}`, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
        setOutcome(`Exported ${plural(result.rows, 'entry', 'entries')} as ${format.toUpperCase()}.`);
      }
    } catch (error) {
      setFailure(error);
    } finally {
      setProgress(undefined);
    }
  };
  const disabled = progress !== undefined || props.listFailed;
  return (
    <div className="export">
      {(['csv', 'ndjson'] as const).map((format) => (
        <button key={format} type="button" onClick={() => void start(format)} disabled={disabled} aria-describedby={props.listFailed ? noteId : undefined}>
          Export {format.toUpperCase()}
        </button>
      ))}
      {props.listFailed && (
        <span id={noteId} className="muted" data-testid="export-unavailable">
          Export waits until the list loads.
        </span>
      )}
      {progress && (
        <span className="export-progress" role="status">
          <progress aria-label="Export progress" /> Exporting {progress.format.toUpperCase()}: {formatCount(progress.rows)} entries so far…
        </span>
      )}
      {outcome && (
        <span role="status" className="muted">
          {outcome}
        </span>
      )}
      {failure !== undefined && (
        <span role="alert" className="error">
          The export failed: {errorMessage(failure)}
        </span>
      )}
    </div>
  );
}

function auditColumns(names: Map<string, NamedTarget>, kindsOf: KindsOf, onFilter: (targetId: string) => void): Column<AuditEntry>[] {
  return [
    {
      header: 'When',
      cell: (entry) => (
        <time dateTime={entry.at} title={formatDateTime(entry.at)}>
          {compactDate(entry.at)}
        </time>
      ),
    },
    { header: 'Who', cell: (entry) => <Who actor={entry.actor} /> },
    { header: 'What', cell: (entry) => <code>{entry.operation}</code> },
    { header: 'Target', cell: (entry) => <Targets entry={entry} names={names} kindsOf={kindsOf} onFilter={onFilter} /> },
    {
      header: 'Outcome',
      cell: (entry) => (
        <>
          <span className={`state ${entry.outcome === 'ok' ? 'state-active' : 'state-revoked'}`}>{entry.outcome}</span>
          {entry.count !== undefined && (
            <span className="audit-count" title={`${entry.count} more refused calls in this minute`}>
              {' '}
              +{entry.count}
            </span>
          )}
        </>
      ),
    },
    { header: 'Address', cell: (entry) => entry.sourceIp ?? '–' },
  ];
}

/** The filtered target in words, from the entries about it (which name its kind), else its id. */
function aboutWords(targetId: string, entries: AuditEntry[], names: Map<string, NamedTarget>, kindsOf: KindsOf): string {
  for (const entry of entries) {
    const index = entry.targetIds.indexOf(targetId);
    if (index >= 0) return targetWords(kindsOf(entry)[index], targetId, names.get(targetId));
  }
  return targetId;
}

export default function AuditPage() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const query = serverQuery(filters);
  const entries = useAuditEntries(query);
  const items = loadedItems(entries.data);
  const { names, kindsOf } = useTargetNames(items);
  const filtered = Object.keys(query).length > 0;
  return (
    <Page title="Audit log" subtitle="Every change made with an API key or by a member, and every refused attempt, newest first. Entries are kept 400 days.">
      {/* Keyed by the filters: a target chosen in a row shows in the form too. */}
      <FilterForm key={JSON.stringify(filters)} filters={filters} onApply={setFilters} />
      {filters.targetId && (
        <p className="audit-about" data-testid="audit-about">
          Only entries about {aboutWords(filters.targetId, items, names, kindsOf)}.{' '}
          <button type="button" className="link-button" onClick={() => setFilters({ ...filters, targetId: '' })}>
            Show every target
          </button>
        </p>
      )}
      <AuditExport query={query} listFailed={Boolean(entries.error)} />
      {entries.error ? (
        <OperationError error={entries.error} feature="Reading the audit log" retry={() => void entries.refetch()} />
      ) : !entries.data ? (
        <Loading what="the audit log" />
      ) : items.length === 0 ? (
        <p className="muted">No entries{filtered ? ' match these filters' : ' yet'}.</p>
      ) : (
        <div className="audit-log">
          <ListTable
            caption="Audit log"
            columns={auditColumns(names, kindsOf, (targetId) => setFilters({ ...filters, targetId }))}
            rows={items}
            rowKey={(entry) => entry.id}
            rowData={(entry) => ({ 'data-entry': entry.id, 'data-operation': entry.operation })}
          />
        </div>
      )}
      <LoadMore hasMore={entries.hasNextPage} onMore={() => void entries.fetchNextPage()} busy={entries.isFetchingNextPage} />
    </Page>
  );
}
