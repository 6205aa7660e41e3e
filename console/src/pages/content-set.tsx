import { Link } from 'wouter';
import { Page, QueryPageState, Section } from '../components/page';
import { PeriodSelector, usePeriodView } from '../components/period-selector';
import { StatsPanel } from '../components/stats-panel';
import { Loading, NoFeedback } from '../components/states';
import { TopItems } from '../components/top-items';
import { WhyPanel } from '../components/why-panel';
import { hasText, schemaName } from '../schemas';
import { periodChoiceLabel } from '../lib/periods';
import { useProject } from '../data/projects';
import { useContentSet } from '../data/sets';
import { useStats } from '../data/stats';
import { useSession } from '../session';

export function ContentSetPage(props: { setId: string }) {
  const { isAdmin } = useSession();
  const set = useContentSet(props.setId);
  const project = useProject(set.data?.projectId);
  const [view, setView] = usePeriodView();
  const subject = { kind: 'set' as const, id: props.setId };
  const stats = useStats(subject, view.period, view.reference, { compare: true });
  // Only asked when the period shown is empty: is the set empty altogether?
  const lifetime = useStats(subject, 'lifetime', undefined, { enabled: stats.data?.count === 0 });
  if (set.error || !set.data) return <QueryPageState title="Content set" crumbs={[{ label: 'Projects', href: '/projects' }]} what="content set" query={set} />;
  const data = set.data;
  const crumbs = [
    { label: 'Projects', href: '/projects' },
    { label: project.data?.name ?? 'Project', href: `/projects/${data.projectId}` },
  ];
  const embedHref = `/sets/${data.id}/embed`;
  return (
    <Page
      title={data.name}
      kicker={`Content set · ${schemaName(data.schema)}`}
      crumbs={crumbs}
      subtitle={
        <>
          <code>{data.key}</code> <span className={`state state-${data.state}`}>{data.state}</span>
          {data.metadata.description && <span className="muted"> {data.metadata.description}</span>}
        </>
      }
      actions={
        <>
          <Link href={`/sets/${data.id}/responses`} className="button">
            Responses
          </Link>
          <Link href={embedHref} className="button">
            Embed
          </Link>
          {isAdmin && (
            <Link href={`/sets/${data.id}/settings`} className="button">
              Settings
            </Link>
          )}
        </>
      }
    >
      {lifetime.data?.count === 0 && <NoFeedback embedHref={embedHref} />}
      <Section title="Statistics">
        <PeriodSelector view={view} onChange={setView} lifetimeStart={stats.data?.period === 'lifetime' ? stats.data.referenceDate : undefined} />
        <StatsPanel
          stats={stats.data}
          error={stats.error}
          retry={() => void stats.refetch()}
          set={data}
          title={`${data.name}, ${periodChoiceLabel(view.period).toLowerCase()}`}
        />
      </Section>
      {hasText(data.schema) && (
        <Section title="Why">
          <WhyPanel set={data} view={view} />
        </Section>
      )}
      <Section title="Top content items">
        {/* After the statistics, so its request does not delay them. */}
        {stats.data || stats.error ? (
          <TopItems
            scope={{ contentSetId: data.id }}
            period={view.period}
            reference={view.reference}
            onShowCurrent={() => setView({ period: view.period, reference: undefined })}
            lifetimeStart={stats.data?.period === 'lifetime' ? stats.data.referenceDate : undefined}
          />
        ) : (
          <Loading what="top items" />
        )}
      </Section>
    </Page>
  );
}
