/**
 * Responses, newest first, for a project, set, item or person: filters (dates, state, and
 * for sets with options the tag or value), `Load more` by cursor, messages in full,
 * profiling in one line, and the exports.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { ContentItem, ContentSet, ExportChunk, Response as FeedbackResponse } from '@feedback-service/client';
import { useContentItems } from '../data/contents';
import { loadedItems } from '../data/paging';
import { type ResponseQuery, useResponses } from '../data/responses';
import { useContentSets } from '../data/sets';
import { exportAll, saveFile, type ExportProgress } from '../lib/export';
import { dayRangeQuery, formatCount, formatDateTime, plural } from '../lib/format';
import { hasOptions, hasText, optionIndex, optionText, optionWord, setOptions } from '../schemas';
import { useReadOn } from '../lib/read-on';
import { useSession } from '../session';
import { DateField } from './date-field';
import { LoadMore } from './load-more';
import { OperationError, Loading, NoFeedback } from './states';

export type ResponseScope = { projectId: string } | { contentSetId: string } | { contentId: string } | { userId: string };

const PAGE_SIZE = 25;

interface Filters {
  from: string;
  to: string;
  state: 'active' | 'revoked' | 'all';
  /** An option value (a tag for tagged messages), or '' for any. */
  option: string;
  /** Text the value (a message) contains, case-insensitive. */
  text: string;
}

const NO_FILTERS: Filters = { from: '', to: '', state: 'active', option: '', text: '' };

function serverQuery(scope: ResponseScope, filters: Filters): ResponseQuery {
  return {
    ...scope,
    state: filters.state,
    ...dayRangeQuery(filters.from, filters.to),
  };
}

function valueText(response: FeedbackResponse): string {
  const value = response.value;
  if (typeof value === 'object') return `${value.tag} ${value.message ?? ''}`;
  return String(value);
}

function matchesClientFilters(response: FeedbackResponse, filters: Filters, set: ContentSet | undefined): boolean {
  if (filters.option && set) {
    const options = setOptions(set);
    const index = optionIndex(set, response.value);
    if (index < 0 || options[index].value !== filters.option) return false;
  }
  if (filters.text && !valueText(response).toLowerCase().includes(filters.text.toLowerCase())) return false;
  return true;
}

/** A response's value as the set's schema shows it: an option's label and emoji, a tag and its message. */
export function Value(props: { response: FeedbackResponse; set: ContentSet | undefined }) {
  const { value } = props.response;
  const set = props.set;
  if (set && hasText(set.schema)) {
    const tag = typeof value === 'object' ? value.tag : undefined;
    const message = typeof value === 'object' ? value.message : String(value);
    const option = tag !== undefined ? setOptions(set)[optionIndex(set, value)] : undefined;
    return (
      <div className="value">
        {tag !== undefined && <span className="tag">{option ? optionText(option) : tag}</span>}
        {message ? <p className="message">{message}</p> : <span className="muted">(no message)</span>}
      </div>
    );
  }
  if (set) {
    const index = optionIndex(set, value);
    const option = index >= 0 ? setOptions(set)[index] : undefined;
    return (
      <div className="value">
        <span className="choice">{option ? optionText(option) : String(value)}</span>
      </div>
    );
  }
  return (
    <div className="value">
      <span className="choice">{typeof value === 'object' ? `${value.tag}${value.message ? `: ${value.message}` : ''}` : String(value)}</span>
    </div>
  );
}

function Profiling(props: { response: FeedbackResponse }) {
  const profiling = props.response.profiling ?? {};
  const parts = [
    [profiling.browser, profiling.browserVersion?.split('.')[0]].filter(Boolean).join(' '),
    [profiling.os, profiling.osVersion].filter(Boolean).join(' '),
    profiling.formFactor,
    profiling.device && [profiling.deviceBrand, profiling.device].filter(Boolean).join(' '),
    profiling.language,
    [profiling.city, profiling.country].filter(Boolean).join(', '),
  ].filter((part): part is string => Boolean(part));
  const context = Object.entries(props.response.context ?? {}).filter(([name]) => name !== '$user');
  if (parts.length === 0 && !profiling.userId && context.length === 0) return null;
  return (
    <p className="profiling">
      {profiling.userId && (
        <Link href={`/respondents/${encodeURIComponent(profiling.userId)}`} className="person">
          {profiling.userId}
        </Link>
      )}
      {parts.length > 0 && <span title="Browser, system, device, language, place">{parts.join(' · ')}</span>}
      {context.length > 0 && <span className="context">{context.map(([name, value]) => `${name}=${String(value)}`).join(' ')}</span>}
    </p>
  );
}

/** `listFailed`: the list these filters select did not load; exporting it would fail the same way, so the buttons wait for it. */
function ExportButtons(props: { scope: ResponseScope; filters: Filters; clientFiltered: boolean; listFailed: boolean }) {
  const { client } = useSession();
  const noteId = useId();
  const [progress, setProgress] = useState<(ExportProgress & { format: ExportChunk['format'] }) | undefined>();
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string | undefined>();
  const signal = useRef({ cancelled: false });
  const start = async (format: ExportChunk['format']) => {
    signal.current = { cancelled: false };
    setError(undefined);
    setDone(undefined);
    setProgress({ rows: 0, chunks: 0, format });
    try {
      const result = await exportAll(client, serverQuery(props.scope, props.filters), format, (next) => setProgress({ ...next, format }), signal.current);
      if (result) {
        const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
        saveFile(result.parts, `responses-${stamp}.${format === 'csv' ? 'csv' : 'ndjson'}`, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
        setDone(`Exported ${plural(result.rows, 'response')} as ${format.toUpperCase()}.`);
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setProgress(undefined);
    }
  };
  return (
    <div className="export">
      <button
        type="button"
        onClick={() => void start('csv')}
        disabled={progress !== undefined || props.listFailed}
        aria-describedby={props.listFailed ? noteId : undefined}
      >
        Export CSV
      </button>
      <button
        type="button"
        onClick={() => void start('ndjson')}
        disabled={progress !== undefined || props.listFailed}
        aria-describedby={props.listFailed ? noteId : undefined}
      >
        Export NDJSON
      </button>
      {props.listFailed && (
        <span id={noteId} className="muted" data-testid="export-unavailable">
          Export waits until the list loads.
        </span>
      )}
      {progress && (
        <span className="export-progress" role="status">
          <progress aria-label="Export progress" /> Exporting {progress.format.toUpperCase()}: {formatCount(progress.rows)} rows so far…{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              signal.current.cancelled = true;
              setProgress(undefined);
            }}
          >
            Cancel
          </button>
        </span>
      )}
      {done && (
        <span role="status" className="muted">
          {done}
          {props.clientFiltered ? ' The tag, value and text filters apply to the list only.' : ''}
        </span>
      )}
      {error !== undefined && <OperationError error={error} feature="Exporting responses" retry={null} />}
    </div>
  );
}

function Filters(props: { filters: Filters; onChange: (filters: Filters) => void; set: ContentSet | undefined }) {
  const ids = { from: useId(), to: useId(), state: useId(), option: useId(), text: useId() };
  const { filters, set } = props;
  const update = (patch: Partial<Filters>) => props.onChange({ ...filters, ...patch });
  const options = set && hasOptions(set.schema) ? setOptions(set) : [];
  const searchable = !set || hasText(set.schema);
  return (
    <form className="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filter responses">
      <DateField id={ids.from} label="From" value={filters.from} onChange={(from) => update({ from })} />
      <DateField id={ids.to} label="To" value={filters.to} onChange={(to) => update({ to })} />
      <div className="field">
        <label htmlFor={ids.state}>State</label>
        <select id={ids.state} value={filters.state} onChange={(event) => update({ state: event.target.value as Filters['state'] })}>
          <option value="active">Active</option>
          <option value="revoked">Revoked</option>
          <option value="all">All</option>
        </select>
      </div>
      {options.length > 0 && (
        <div className="field">
          <label htmlFor={ids.option}>{set ? optionWord(set.schema) : 'Value'}</label>
          <select id={ids.option} value={filters.option} onChange={(event) => update({ option: event.target.value })}>
            <option value="">Any</option>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {optionText(option)}
              </option>
            ))}
          </select>
        </div>
      )}
      {searchable && (
        <div className="field">
          <label htmlFor={ids.text}>{set ? 'Message contains' : 'Value contains'}</label>
          <input id={ids.text} type="search" value={filters.text} onChange={(event) => update({ text: event.target.value })} />
        </div>
      )}
      {(filters.from || filters.to || filters.state !== 'active' || filters.option || filters.text) && (
        <button type="button" className="link-button" onClick={() => props.onChange(NO_FILTERS)}>
          Clear filters
        </button>
      )}
    </form>
  );
}

/**
 * The sets and items that responses name (one read each, cached), for their labels and
 * links. `set`: the one set they all belong to, already loaded; `items: false`: no items.
 */
export function useResponseTargets(responses: FeedbackResponse[], options: { set?: ContentSet; items?: boolean } = {}) {
  const setIds = options.set ? [] : [...new Set(responses.map((response) => response.contentSetId))];
  const itemIds = options.items === false ? [] : [...new Set(responses.map((response) => response.contentItemId))];
  const sets = useContentSets(setIds);
  const items = useContentItems(itemIds);
  const setById = new Map<string, ContentSet>();
  if (options.set) setById.set(options.set.id, options.set);
  for (const [index, result] of sets.entries()) if (result.data) setById.set(setIds[index], result.data);
  const itemById = new Map(items.flatMap((result, index) => (result.data ? [[itemIds[index], result.data] as const] : [])));
  return { setById, itemById };
}

/** What a person calls an item: its title, else its key (the page's address). */
export function itemName(item: Pick<ContentItem, 'key' | 'metadata'>): string {
  return item.metadata.title || item.key;
}

export function ResponsesList(props: { scope: ResponseScope; set?: ContentSet; embedHref?: string; showItem?: boolean }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const responses = useResponses(serverQuery(props.scope, filters), PAGE_SIZE);
  const loaded = useMemo(() => loadedItems(responses.data), [responses.data]);

  const { setById, itemById } = useResponseTargets(loaded, { set: props.set, items: props.showItem !== false });

  const clientFiltered = Boolean(filters.option || filters.text);
  const shown = clientFiltered ? loaded.filter((response) => matchesClientFilters(response, filters, setById.get(response.contentSetId))) : loaded;
  const unfiltered = !filters.from && !filters.to && filters.state === 'active' && !clientFiltered;
  const readOn = useReadOn(responses, shown.length, PAGE_SIZE, JSON.stringify(filters));

  return (
    <div className="responses">
      <Filters filters={filters} onChange={setFilters} set={props.set} />
      <ExportButtons scope={props.scope} filters={filters} clientFiltered={clientFiltered} listFailed={Boolean(responses.error)} />
      {responses.error ? (
        <OperationError error={responses.error} feature="This list" retry={() => void responses.refetch()} />
      ) : !responses.data ? (
        <Loading what="responses" />
      ) : shown.length === 0 && !responses.hasNextPage ? (
        unfiltered ? (
          <NoFeedback embedHref={props.embedHref} />
        ) : (
          <p className="empty">No responses match these filters.</p>
        )
      ) : (
        <>
          <p className="muted small" role="status">
            {clientFiltered
              ? `${plural(shown.length, 'response')} of ${formatCount(loaded.length)} loaded match`
              : `${plural(loaded.length, 'response')} shown`}
            {readOn.searching ? '; searching older responses…' : responses.hasNextPage ? '; more below.' : '.'}
            {readOn.paused && ` Searched ${plural(readOn.pages, 'page')} of responses; older ones may match too.`}
          </p>
          <ol className="response-list" data-testid="response-list">
            {shown.map((response) => {
              const item = itemById.get(response.contentItemId);
              const set = setById.get(response.contentSetId);
              return (
                <li key={response.id} className="response" data-state={response.state} data-response={response.id}>
                  <div className="response-meta">
                    <time dateTime={response.createdAt}>{formatDateTime(response.createdAt)}</time>
                    {response.state !== 'active' && <span className="state state-revoked">{response.state}</span>}
                    {props.showItem !== false && (
                      <Link href={`/items/${response.contentItemId}`} className="response-item">
                        {item ? itemName(item) : 'content item'}
                      </Link>
                    )}
                    {!props.set && set && <span className="muted">in {set.name}</span>}
                  </div>
                  <Value response={response} set={set} />
                  <Profiling response={response} />
                </li>
              );
            })}
          </ol>
          <LoadMore hasMore={responses.hasNextPage} onMore={readOn.more} busy={responses.isFetchingNextPage || readOn.searching} paused={readOn.paused} />
        </>
      )}
    </div>
  );
}
