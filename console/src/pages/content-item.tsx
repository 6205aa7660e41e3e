import { Page, QueryPageState, Section } from '../components/page';
import { PeriodSelector, usePeriodView } from '../components/period-selector';
import { ResponsesList } from '../components/responses';
import { StatsPanel } from '../components/stats-panel';
import { WhyPanel } from '../components/why-panel';
import { hasText } from '../schemas';
import { ErrorMessage, Loading } from '../components/states';
import { periodChoiceLabel } from '../lib/periods';
import { useContentItem } from '../data/contents';
import { useProject } from '../data/projects';
import { useContentSet } from '../data/sets';
import { useStats } from '../data/stats';

function safeHref(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

export function ContentItemPage(props: { itemId: string }) {
  const item = useContentItem(props.itemId);
  const set = useContentSet(item.data?.contentSetId);
  const project = useProject(item.data?.projectId);
  const [view, setView] = usePeriodView();
  const subject = { kind: 'item' as const, id: props.itemId };
  const stats = useStats(subject, view.period, view.reference, { compare: true });
  const crumbs = [{ label: 'Projects', href: '/projects' }];
  if (item.error || !item.data) return <QueryPageState title="Content item" crumbs={crumbs} what="content item" query={item} />;
  const data = item.data;
  const title = data.metadata.title || data.key;
  const href = safeHref(data.metadata.url ?? data.key);
  crumbs.push(
    { label: project.data?.name ?? 'Project', href: `/projects/${data.projectId}` },
    { label: set.data?.name ?? 'Content set', href: `/sets/${data.contentSetId}` },
  );
  return (
    <Page
      title={title}
      kicker="Content item"
      crumbs={crumbs}
      subtitle={
        <>
          {href ? (
            <a href={href} rel="noopener noreferrer" target="_blank" className="item-url">
              {data.metadata.url ?? data.key}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : (
            <code>{data.key}</code>
          )}{' '}
          <span className={`state state-${data.state}`}>{data.state}</span>
        </>
      }
    >
      <Section title="Statistics">
        <PeriodSelector view={view} onChange={setView} lifetimeStart={stats.data?.period === 'lifetime' ? stats.data.referenceDate : undefined} />
        {set.error ? (
          <ErrorMessage error={set.error} retry={() => void set.refetch()} />
        ) : !set.data ? (
          <Loading what="statistics" />
        ) : (
          <StatsPanel
            stats={stats.data}
            error={stats.error}
            retry={() => void stats.refetch()}
            set={set.data}
            title={`${title}, ${periodChoiceLabel(view.period).toLowerCase()}`}
          />
        )}
      </Section>
      {set.data && hasText(set.data.schema) && (
        <Section title="Why">
          <WhyPanel set={set.data} item={data.id} view={view} />
        </Section>
      )}
      <Section title="Responses">
        {set.data ? (
          <ResponsesList scope={{ contentId: data.id }} set={set.data} showItem={false} embedHref={`/sets/${data.contentSetId}/embed`} />
        ) : (
          <Loading what="responses" />
        )}
      </Section>
    </Page>
  );
}
