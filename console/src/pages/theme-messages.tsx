/**
 * The messages of a theme or a phrase (responses/list by `theme` or `phrase`), of a set or
 * one of its items, in the period and tag of the Why panel that linked here: all of them,
 * newest first, with how many there are, so a person can read every one.
 */
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import type { Response as FeedbackResponse } from '@feedback-service/client';
import { LoadMore } from '../components/load-more';
import { Page, QueryPageState } from '../components/page';
import { itemName, useResponseTargets, Value } from '../components/responses';
import { ErrorMessage, Loading } from '../components/states';
import { CurationDialog, type CurationAction } from '../components/theme-curation';
import { useContentItem } from '../data/contents';
import { loadedItems } from '../data/paging';
import { useProject } from '../data/projects';
import { type ResponseQuery, useResponses } from '../data/responses';
import { useContentSet } from '../data/sets';
import { useThemes } from '../data/themes';
import { useSession } from '../session';
import { formatCount, formatDateTime, plural } from '../lib/format';
import { tagDisplay } from '../schemas/tagged-message';
import { optionText } from '../schemas';
import { periodDays, tagsNegativeFirst } from '../lib/themes';

const PAGE_SIZE = 50;

/** A message's text, whatever the set's schema keeps it in. */
function messageText(value: FeedbackResponse['value']): string {
  return typeof value === 'object' ? (value.message ?? '') : String(value);
}

function isInstant(text: string | null): text is string {
  return text !== null && !Number.isNaN(Date.parse(text));
}

/** What moving a message can aim at: the set's themes of its whole history (the most a read gives). */
const MOVE_TARGETS = 30;

export function ThemeMessagesPage(props: { setId: string }) {
  const { isAdmin } = useSession();
  const [params] = useSearchParams();
  const [action, setAction] = useState<CurationAction | undefined>();
  const [recorded, setRecorded] = useState(false);
  const set = useContentSet(props.setId);
  const itemId = params.get('item') ?? undefined;
  const item = useContentItem(itemId);
  const project = useProject(set.data?.projectId);
  const theme = params.get('theme') ?? undefined;
  const phrase = theme ? undefined : (params.get('phrase') ?? undefined);
  const tag = params.get('tag') ?? undefined;
  const from = params.get('from');
  const to = params.get('to');
  const label = params.get('label') || (phrase ? `“${phrase}”` : 'Theme');
  const query: ResponseQuery = {
    ...(itemId ? { contentId: itemId } : { contentSetId: props.setId }),
    ...(theme ? { theme } : phrase ? { phrase } : {}),
    ...(tag ? { tag } : {}),
    ...(isInstant(from) ? { from } : {}),
    ...(isInstant(to) ? { to } : {}),
  };
  const selected = Boolean(theme || phrase);
  const responses = useResponses(query, PAGE_SIZE);
  const loaded = useMemo(() => loadedItems(responses.data), [responses.data]);
  const { itemById } = useResponseTargets(loaded, { set: set.data, items: !itemId });
  const targets = useThemes({ kind: 'set', id: props.setId }, { period: 'lifetime', tag, size: MOVE_TARGETS, examples: 0 }, { enabled: isAdmin && selected });
  const currentTheme = targets.data?.themes.find((entry) => entry.id === theme);
  const crumbs = [{ label: 'Projects', href: '/projects' }];
  if (set.error || !set.data) return <QueryPageState title={label} crumbs={crumbs} what="content set" query={set} />;
  crumbs.push({ label: project.data?.name ?? 'Project', href: `/projects/${set.data.projectId}` }, { label: set.data.name, href: `/sets/${set.data.id}` });
  if (itemId) crumbs.push({ label: item.data ? itemName(item.data) : 'Content item', href: `/items/${itemId}` });
  const tagOption = tag ? tagsNegativeFirst(set.data).find((entry) => entry.value === tag) : undefined;
  const total = responses.data?.pages[0]?.count;
  return (
    <Page title={label} kicker={theme === 'other' ? 'Messages in no theme' : phrase ? 'Messages with a phrase' : 'Messages of a theme'} crumbs={crumbs}>
      <p className="subtitle" data-testid="messages-scope">
        {itemId ? `On ${item.data ? itemName(item.data) : 'this page'}` : `In ${set.data.name}`}
        {isInstant(from) && isInstant(to) && `, ${periodDays(from, to)}`}
        {tagOption && `, tagged ${optionText(tagDisplay(tagOption))}`}.
      </p>
      {recorded && (
        <p role="status" className="note">
          Recorded. The message moves at the themes job’s next run, within a minute.
        </p>
      )}
      {!selected ? (
        <p className="error">This link names no theme or phrase.</p>
      ) : responses.error ? (
        <ErrorMessage error={responses.error} retry={() => void responses.refetch()} />
      ) : !responses.data ? (
        <Loading what="messages" />
      ) : loaded.length === 0 ? (
        <p className="empty">No messages: they may have been removed or moved since.</p>
      ) : (
        <>
          <p className="muted small" role="status" data-testid="messages-count">
            {total !== undefined ? `${plural(total, 'message')}; ${formatCount(loaded.length)} shown` : `${plural(loaded.length, 'message')} shown`}
            {responses.hasNextPage ? '; more below.' : '.'}
          </p>
          <ol className="response-list" data-testid="response-list">
            {loaded.map((response) => {
              const page = itemById.get(response.contentItemId);
              return (
                <li key={response.id} className="response" data-response={response.id}>
                  <div className="response-meta">
                    <time dateTime={response.createdAt}>{formatDateTime(response.createdAt)}</time>
                    {!itemId && (
                      <Link href={`/items/${response.contentItemId}`} className="response-item">
                        {page ? itemName(page) : 'content item'}
                      </Link>
                    )}
                  </div>
                  <Value response={response} set={set.data} />
                  {isAdmin && targets.data && (
                    <button
                      type="button"
                      className="link-button small"
                      onClick={() => setAction({ kind: 'move', theme: currentTheme, message: { responseId: response.id, text: messageText(response.value) } })}
                    >
                      Move to another theme…
                    </button>
                  )}
                </li>
              );
            })}
          </ol>
          <LoadMore hasMore={responses.hasNextPage} onMore={() => void responses.fetchNextPage()} busy={responses.isFetchingNextPage} />
        </>
      )}
      {isAdmin && (
        <CurationDialog
          setId={props.setId}
          action={action}
          themes={targets.data?.themes ?? []}
          onClose={() => setAction(undefined)}
          onDone={() => setRecorded(true)}
        />
      )}
    </Page>
  );
}
