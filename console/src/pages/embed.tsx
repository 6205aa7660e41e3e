import { lazy, Suspense, useId, useState } from 'react';
import { CopyButton } from '../components/copy-button';
import { Page, QueryPageState, Section } from '../components/page';
import { ErrorMessage, Loading } from '../components/states';
import { formatDateTime } from '../lib/format';
import { optionIndex, optionText, setOptions } from '../schemas';
import { useProject } from '../data/projects';
import { useErasePreviewResponses, useLatestResponses } from '../data/responses';
import { useContentSet } from '../data/sets';
import { snippetsFor } from '../lib/snippets';
import { API_BASE_URL, useSession } from '../session';
import type { ContentSet } from '@feedback-service/client';

const WidgetPreview = lazy(() => import('../components/widget-preview'));

const TABS = [
  { id: 'react', label: '@feelback/react' },
  { id: 'astro', label: 'astro-feelback' },
  { id: 'html', label: 'Plain HTML (@feelback/js)' },
] as const;

function Snippet(props: { set: ContentSet }) {
  const [tab, setTab] = useState<(typeof TABS)[number]['id']>('react');
  const snippets = snippetsFor(props.set, API_BASE_URL);
  const baseId = useId();
  return (
    <>
      {snippets.note && <p className="note">{snippets.note}</p>}
      <div role="tablist" aria-label="Widget library" className="tabs">
        {TABS.map((entry) => (
          <button
            key={entry.id}
            type="button"
            role="tab"
            id={`${baseId}-${entry.id}-tab`}
            aria-selected={tab === entry.id}
            aria-controls={`${baseId}-${entry.id}-panel`}
            tabIndex={tab === entry.id ? 0 : -1}
            onClick={() => setTab(entry.id)}
            onKeyDown={(event) => {
              const index = TABS.findIndex((candidate) => candidate.id === tab);
              const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : undefined;
              if (next === undefined) return;
              const target = TABS[(next + TABS.length) % TABS.length];
              setTab(target.id);
              document.getElementById(`${baseId}-${target.id}-tab`)?.focus();
            }}
          >
            {entry.label}
          </button>
        ))}
      </div>
      {TABS.map((entry) => (
        <div
          key={entry.id}
          role="tabpanel"
          id={`${baseId}-${entry.id}-panel`}
          aria-labelledby={`${baseId}-${entry.id}-tab`}
          hidden={tab !== entry.id}
          className="snippet"
        >
          <pre data-testid={`snippet-${entry.id}`}>
            <code>{snippets[entry.id]}</code>
          </pre>
          <CopyButton text={snippets[entry.id]} what={`the ${entry.label} snippet`} />
        </div>
      ))}
    </>
  );
}

function LatestResponses(props: { set: ContentSet }) {
  const latest = useLatestResponses(props.set.id);
  if (latest.error) return <ErrorMessage error={latest.error} retry={() => void latest.refetch()} />;
  if (!latest.data) return <Loading what="latest responses" />;
  if (latest.data.items.length === 0) return <p className="muted">No response yet.</p>;
  const options = setOptions(props.set);
  return (
    <ol className="latest" data-testid="latest-responses">
      {latest.data.items.map((response) => {
        const index = optionIndex(props.set, response.value);
        const value =
          index >= 0 && props.set.schema !== 'message'
            ? optionText(options[index])
            : typeof response.value === 'object'
              ? `${response.value.tag}: ${response.value.message ?? ''}`
              : String(response.value);
        return (
          <li key={response.id} data-response={response.id}>
            <time dateTime={response.createdAt}>{formatDateTime(response.createdAt)}</time> <span className="choice">{value}</span>
          </li>
        );
      })}
    </ol>
  );
}

export default function EmbedPage(props: { setId: string }) {
  const set = useContentSet(props.setId);
  const project = useProject(set.data?.projectId);
  if (set.error || !set.data) return <QueryPageState title="Embed" what="content set" query={set} />;
  const data = set.data;
  const crumbs = [
    { label: 'Projects', href: '/projects' },
    { label: project.data?.name ?? 'Project', href: `/projects/${data.projectId}` },
    { label: data.name, href: `/sets/${data.id}` },
  ];
  const previewKey = window.location.href.split('#')[0];
  // Without a revoke token a preview response could not be taken back: no preview then.
  const untakable = data.metadata.revokeWindow === 0;
  const blocked =
    data.state !== 'active'
      ? `This set is ${data.state}: it takes no responses until it is active again.`
      : data.metadata.disallowAutoContentCreation
        ? `This set does not create content items automatically: create an item with the key “${previewKey}” first, or allow automatic creation in the settings.`
        : undefined;
  return (
    <Page
      title={data.name}
      kicker="Embed a widget"
      crumbs={crumbs}
      subtitle={
        <>
          Endpoint <code>{API_BASE_URL}</code> · set id <code>{data.id}</code>
        </>
      }
    >
      <Section title="Snippet">
        <Snippet set={data} />
      </Section>
      <Section title="Live preview">
        <p className="muted" data-testid="preview-explanation">
          Try the real widget here, on this page’s own address (<code>{previewKey}</code>). Your click is recorded like any visitor’s, then taken back and
          deleted at once: it changes no count, ranking, list or export, and no webhook hears of it, so nothing reaches your team’s chat. The preview is for
          admins, since only they may delete responses.
        </p>
        {untakable ? (
          <p className="note" data-testid="preview-off">
            This set grants no revoke tokens (its revocation window is 0), so a preview response could not be taken back: the preview is off. Try the widget on
            a page of your own, or give the set a revocation window in its settings.
          </p>
        ) : (
          <>
            {blocked && <p className="note">{blocked}</p>}
            <Suspense fallback={<Loading what="widget" />}>
              <AdminErasingPreview set={data} />
            </Suspense>
          </>
        )}
        <h3>Latest responses</h3>
        <LatestResponses set={data} />
      </Section>
    </Page>
  );
}

/**
 * The live preview, for admins: each response it took back is then erased, so it stays in
 * no list or export either (a viewer could not erase it: no preview then). The widget keys
 * its item by this page's full address.
 */
function AdminErasingPreview(props: { set: ContentSet }) {
  const { isAdmin } = useSession();
  const erase = useErasePreviewResponses(props.set.id, window.location.href);
  if (!isAdmin) {
    return (
      <p className="note" data-testid="preview-off">
        The live preview is for admins: it erases what it records, which a viewer cannot. Try the widget on a page of your own.
      </p>
    );
  }
  return <WidgetPreview set={props.set} endpoint={API_BASE_URL} erase={() => erase.mutateAsync()} />;
}
