import { useState } from 'react';
import { Link } from 'wouter';
import type { Response as FeedbackResponse } from '@feedback-service/client';
import { type Column, ListTable } from '../components/list-table';
import { LoadMore } from '../components/load-more';
import { Page, PageState } from '../components/page';
import { ErrorMessage, Loading } from '../components/states';
import { loadedItems } from '../data/paging';
import { useProject } from '../data/projects';
import { useJudgeResponses, useResponses, type Verdict } from '../data/responses';
import { formatDateTime, plural } from '../lib/format';
import { useSession } from '../session';

/** Why a response was held, in words (docs/api.md "Quarantine"). */
const REASONS: Record<string, string> = {
  'visitor-burst': 'Too many from one visitor within a minute',
  'item-surge': 'A surge far above the page’s usual rate',
  'spam-links': 'Too many links',
  'spam-link-density': 'Mostly a link',
  'spam-repeated-text': 'Repeated text',
  'spam-same-message-across-items': 'The same message on many pages',
  'spam-known-shape': 'Looks like known spam',
};

function valueText(response: FeedbackResponse): string {
  const value = response.value;
  if (typeof value === 'object') return value.message ? `${value.tag}: ${value.message}` : value.tag;
  return String(value);
}

const VERDICT_WORDS: Record<Verdict, string> = { release: 'Approved', discard: 'Discarded' };

/** A project's held (quarantined) responses, the reason each was held, and the admin's verdict on them. */
export function ReviewPage(props: { projectId: string }) {
  const { projectId } = props;
  const project = useProject(projectId);
  const { isAdmin } = useSession();
  const held = useResponses({ projectId, state: 'quarantined' }, 50);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [done, setDone] = useState<string>();
  const judge = useJudgeResponses();
  const crumbs = [{ label: 'Projects', href: '/projects' }];
  if (project.error)
    return (
      <PageState title="Review" crumbs={crumbs}>
        <ErrorMessage error={project.error} retry={() => void project.refetch()} />
      </PageState>
    );
  if (!project.data)
    return (
      <PageState title="Review">
        <Loading what="held responses" />
      </PageState>
    );
  crumbs.push({ label: project.data.name, href: `/projects/${projectId}` });
  const rows = loadedItems(held.data);

  const decide = (verdict: Verdict, selection: { responseIds: string[] } | { contentId: string }) =>
    judge.mutate(
      { verdict, selection },
      {
        onSuccess: (changed) => {
          setSelected(new Set());
          setDone(`${VERDICT_WORDS[verdict]} ${plural(changed, 'response')}.`);
        },
      },
    );
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns: Column<FeedbackResponse>[] = [
    {
      header: 'Response',
      cell: (response) =>
        isAdmin ? (
          <label className="review-select">
            <input type="checkbox" checked={selected.has(response.id)} onChange={() => toggle(response.id)} /> {valueText(response)}
          </label>
        ) : (
          valueText(response)
        ),
    },
    { header: 'Why it was held', cell: (response) => REASONS[response.quarantine?.reason ?? ''] ?? response.quarantine?.reason ?? '' },
    { header: 'Received', cell: (response) => formatDateTime(response.createdAt) },
    { header: 'Page', cell: (response) => <Link href={`/items/${response.contentItemId}`}>Open the page’s item</Link> },
  ];
  if (isAdmin)
    columns.push({
      header: 'Actions',
      hiddenHeader: true,
      cell: (response) => (
        <span className="actions">
          <button type="button" onClick={() => decide('release', { responseIds: [response.id] })} disabled={judge.isPending}>
            Approve
          </button>
          <button type="button" onClick={() => decide('discard', { responseIds: [response.id] })} disabled={judge.isPending}>
            Discard
          </button>
          <button type="button" onClick={() => decide('release', { contentId: response.contentItemId })} disabled={judge.isPending}>
            Approve all of its page
          </button>
          <button type="button" onClick={() => decide('discard', { contentId: response.contentItemId })} disabled={judge.isPending}>
            Discard all of its page
          </button>
        </span>
      ),
    });

  return (
    <Page title={`Review ${project.data.name}`} kicker="Project" crumbs={crumbs}>
      <p className="muted">Responses held back as floods or spam: not counted and not announced until approved. Discarded ones are never counted.</p>
      {isAdmin && (
        <div className="toolbar">
          <button type="button" disabled={selected.size === 0 || judge.isPending} onClick={() => decide('release', { responseIds: [...selected] })}>
            Approve selected ({selected.size})
          </button>
          <button type="button" disabled={selected.size === 0 || judge.isPending} onClick={() => decide('discard', { responseIds: [...selected] })}>
            Discard selected ({selected.size})
          </button>
        </div>
      )}
      <p role="status">{done}</p>
      {judge.error && <ErrorMessage error={judge.error} retry={null} />}
      {held.error ? (
        <ErrorMessage error={held.error} retry={() => void held.refetch()} />
      ) : !held.data ? (
        <Loading what="held responses" />
      ) : (
        <>
          <ListTable
            caption="Held responses"
            columns={columns}
            rows={rows}
            rowKey={(response) => response.id}
            rowData={(response) => ({ 'data-response-id': response.id })}
            empty={<p data-testid="nothing-held">Nothing is waiting for review.</p>}
            testId="held-responses"
          />
          <LoadMore hasMore={held.hasNextPage} onMore={() => void held.fetchNextPage()} busy={held.isFetchingNextPage} />
        </>
      )}
    </Page>
  );
}
