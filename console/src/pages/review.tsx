import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { ContentItem, ContentSet, Response as FeedbackResponse } from '@feedback-service/client';
import { type Column, ListTable } from '../components/list-table';
import { LoadMore } from '../components/load-more';
import { Page, PageState } from '../components/page';
import { itemName, useResponseTargets, Value } from '../components/responses';
import { ErrorMessage, Loading } from '../components/states';
import { loadedItems } from '../data/paging';
import { useProject } from '../data/projects';
import { useJudgeResponses, useResponses, type Verdict } from '../data/responses';
import { formatDateTime, plural } from '../lib/format';
import { hasText, optionIndex, optionText, responsesOf, setOptions } from '../schemas';
import { useSession } from '../session';

/** Why a response was held (docs/api.md "Quarantine"), from the API's own list of reasons. */
type QuarantineReason = NonNullable<FeedbackResponse['quarantine']>['reason'];

/**
 * Each reason in words: how a group of held responses ends ("7 votes on “Pricing” from one
 * visitor within a minute"), and what an admin may want to know. A record
 * over the API's reasons: a reason the API adds does not compile until it has its words.
 */
const REASONS: { [R in QuarantineReason]: { group: (set: ContentSet | undefined) => string; hint?: string } } = {
  'visitor-burst': {
    group: () => 'from one visitor within a minute',
  },
  'address-limit': {
    group: (set) =>
      `from more than ${set ? plural(set.metadata.quarantine.addressLimit, 'visitor') : 'the set’s limit of visitors'} of one network address today`,
    hint: 'People behind one office, school or mobile network share an address: approve them if they are real.',
  },
  'item-surge': {
    group: () => 'in a surge far above the page’s usual rate',
  },
  'spam-links': { group: () => 'with too many links' },
  'spam-link-density': { group: () => 'made mostly of a link' },
  'spam-repeated-text': { group: () => 'with repeated text' },
  'spam-same-message-across-items': {
    group: () => 'repeating a message sent to many pages',
  },
  'spam-known-shape': { group: () => 'shaped like known spam' },
};

const VERDICT_WORDS: Record<Verdict, string> = { release: 'Approved', discard: 'Discarded' };

/** The held responses of one page for one reason: what a moderator judges together. */
interface HeldGroup {
  key: string;
  contentItemId: string;
  reason: QuarantineReason | undefined;
  responses: FeedbackResponse[];
  set: ContentSet | undefined;
  item: ContentItem | undefined;
}

/** Groups by page and reason, the largest first (then the page with the latest one). */
function groupsOf(responses: FeedbackResponse[], setById: Map<string, ContentSet>, itemById: Map<string, ContentItem>): HeldGroup[] {
  const groups = new Map<string, HeldGroup>();
  for (const response of responses) {
    const reason = response.quarantine?.reason;
    const key = `${response.contentItemId} ${reason ?? ''}`;
    const group = groups.get(key) ?? {
      key,
      contentItemId: response.contentItemId,
      reason,
      responses: [],
      set: setById.get(response.contentSetId),
      item: itemById.get(response.contentItemId),
    };
    group.responses.push(response);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.responses.length - a.responses.length || (a.responses[0].createdAt < b.responses[0].createdAt ? 1 : -1));
}

/** "7 votes on “Pricing” from one visitor within a minute". */
function groupSentence(group: HeldGroup): string {
  const what = group.set ? responsesOf(group.set.schema, group.responses.length) : plural(group.responses.length, 'response');
  const page = group.item ? `“${itemName(group.item)}”` : 'a page';
  const why = group.reason ? REASONS[group.reason].group(group.set) : 'held for review';
  return `${what} on ${page} ${why}`;
}

/** What the group's responses say, by the set's labels: "👎 No × 6, 👍 Yes × 1", or its first message. */
function valuesOf(group: HeldGroup): string {
  const { set, responses } = group;
  if (!set) return '';
  if (hasText(set.schema)) {
    const first = responses[0].value;
    const message = typeof first === 'object' ? (first.message ?? first.tag) : String(first);
    const shown = message.length > 80 ? `${message.slice(0, 79)}…` : message;
    return responses.length > 1 ? `“${shown}” and ${plural(responses.length - 1, 'more')}` : `“${shown}”`;
  }
  const options = setOptions(set);
  const counts = new Map<string, number>();
  for (const response of responses) {
    const index = optionIndex(set, response.value);
    const label = index >= 0 ? optionText(options[index]) : String(response.value);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts.entries()].map(([label, count]) => `${label} × ${count}`).join(', ');
}

function receivedOf(group: HeldGroup): string {
  const times = group.responses.map((response) => response.createdAt).sort();
  const first = formatDateTime(times[0]);
  const last = formatDateTime(times[times.length - 1]);
  return first === last ? first : `${first} to ${last}`;
}

/** A project's held (quarantined) responses, grouped by page and reason, and the admin's verdict on a group or on each. */
export function ReviewPage(props: { projectId: string }) {
  const { projectId } = props;
  const project = useProject(projectId);
  const { isAdmin } = useSession();
  const held = useResponses({ projectId, state: 'quarantined' }, 50);
  const rows = loadedItems(held.data);
  const { setById, itemById } = useResponseTargets(rows);
  const [opened, setOpened] = useState<string>();
  const [done, setDone] = useState<string>();
  const judge = useJudgeResponses();
  const openedHeading = useRef<HTMLHeadingElement>(null);
  const openedHeadingId = useId();
  useEffect(() => {
    if (opened) openedHeading.current?.focus();
  }, [opened]);
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
  const groups = groupsOf(rows, setById, itemById);
  const openGroup = groups.find((group) => group.key === opened);

  const decide = (verdict: Verdict, responses: FeedbackResponse[]) =>
    judge.mutate(
      { verdict, selection: { responseIds: responses.map((response) => response.id) } },
      { onSuccess: (changed) => setDone(`${VERDICT_WORDS[verdict]} ${plural(changed, 'response')}.`) },
    );

  const groupColumns: Column<HeldGroup>[] = [
    {
      header: 'Held',
      cell: (group) => (
        <>
          <span className="held-sentence">{groupSentence(group)}</span>
          {group.reason && REASONS[group.reason].hint && <span className="muted small held-hint">{REASONS[group.reason].hint}</span>}
        </>
      ),
    },
    { header: 'Values', cell: valuesOf },
    { header: 'Received', cell: receivedOf },
    {
      header: 'Page',
      cell: (group) => (
        <Link href={`/items/${group.contentItemId}`}>
          {group.item ? itemName(group.item) : 'the page’s item'}
          {group.set && <span className="muted"> in {group.set.name}</span>}
        </Link>
      ),
    },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (group) => {
        const sentence = groupSentence(group);
        const count = group.responses.length;
        const approve = count === 1 ? 'Approve' : `Approve all ${count}`;
        const discard = count === 1 ? 'Discard' : `Discard all ${count}`;
        const open = opened === group.key ? 'Close' : 'One by one';
        // Each name begins with the button's own words, then says which group.
        return (
          <span className="actions">
            {isAdmin && (
              <>
                <button type="button" aria-label={`${approve}: ${sentence}`} onClick={() => decide('release', group.responses)} disabled={judge.isPending}>
                  {approve}
                </button>
                <button type="button" aria-label={`${discard}: ${sentence}`} onClick={() => decide('discard', group.responses)} disabled={judge.isPending}>
                  {discard}
                </button>
              </>
            )}
            <button
              type="button"
              aria-expanded={opened === group.key}
              aria-label={`${open}: ${sentence}`}
              onClick={() => setOpened(opened === group.key ? undefined : group.key)}
            >
              {open}
            </button>
          </span>
        );
      },
    },
  ];

  const responseColumns: Column<FeedbackResponse>[] = [
    { header: 'Response', cell: (response) => <Value response={response} set={setById.get(response.contentSetId)} /> },
    { header: 'Received', cell: (response) => formatDateTime(response.createdAt) },
  ];
  if (isAdmin)
    responseColumns.push({
      header: 'Actions',
      hiddenHeader: true,
      cell: (response) => (
        <span className="actions">
          <button type="button" onClick={() => decide('release', [response])} disabled={judge.isPending}>
            Approve
          </button>
          <button type="button" onClick={() => decide('discard', [response])} disabled={judge.isPending}>
            Discard
          </button>
        </span>
      ),
    });

  return (
    <Page title={`Review ${project.data.name}`} kicker="Project" crumbs={crumbs}>
      <p className="muted">
        Responses held back as floods or spam, by page and reason: not counted and not announced until approved. Discarded ones are never counted.
      </p>
      <p role="status">{done}</p>
      {judge.error && <ErrorMessage error={judge.error} retry={null} />}
      {held.error ? (
        <ErrorMessage error={held.error} retry={() => void held.refetch()} />
      ) : !held.data ? (
        <Loading what="held responses" />
      ) : (
        <>
          <ListTable
            caption="Held responses by page and reason"
            columns={groupColumns}
            rows={groups}
            rowKey={(group) => group.key}
            rowData={(group) => ({ 'data-group': group.key, 'data-reason': group.reason ?? '' })}
            empty={<p data-testid="nothing-held">Nothing is waiting for review.</p>}
            testId="held-groups"
          />
          <LoadMore hasMore={held.hasNextPage} onMore={() => void held.fetchNextPage()} busy={held.isFetchingNextPage} />
          {openGroup && (
            <section className="card" aria-labelledby={openedHeadingId}>
              <h2 id={openedHeadingId} ref={openedHeading} tabIndex={-1}>
                {groupSentence(openGroup)}
              </h2>
              <ListTable
                caption={groupSentence(openGroup)}
                columns={responseColumns}
                rows={openGroup.responses}
                rowKey={(response) => response.id}
                rowData={(response) => ({ 'data-response-id': response.id })}
                testId="held-responses"
              />
            </section>
          )}
        </>
      )}
    </Page>
  );
}
