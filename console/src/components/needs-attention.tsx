/**
 * A project's "Needs attention": per schema with a score, the worst pages of the last 7 days
 * (ending today, read live from the rankings like the page's other statistics, so a response
 * counted a minute ago already moves them) with their 95% intervals drawn as bars (a page with
 * 2 answers is not ranked with one of 200: the interval says how sure the score is), each
 * against the 7 days before (newly bad, or bad before too) and with what its messages of the
 * same 7 days say most (page-reason.tsx); the largest drops of the
 * last complete week against the week before, from the weekly digest (no operation ranks
 * pages by their change over the live 7 days); and the latest alerts.
 */
import { Link } from 'wouter';
import type { ContentItemTopEntry, ContentSet, ProjectDigest, SchemaName } from '@feedback-service/client';
import { useAlerts } from '../data/alerts';
import { useWorstItems, WORST_MIN_COUNT } from '../data/contents';
import { loadedItems } from '../data/paging';
import { useProjectDigest } from '../data/projects';
import { useContentSets } from '../data/sets';
import { useStats } from '../data/stats';
import { formatCount, formatDate, plural } from '../lib/format';
import { periodLabel, resolvedOf, resolveView } from '../lib/periods';
import { changeWords, schemaName, scoreView } from '../schemas';
import { SCHEMAS } from '../../../shared/schema-options';
import { AlertItem } from './alert-item';
import { PageReason } from './page-reason';
import { IntervalBar } from './interval-bar';
import { itemName } from './responses';
import { ErrorMessage, Loading } from './states';

type Digest = ProjectDigest;

/** A score with its interval, drawn and in words ("25% (11–47%)"), on its set's scale. */
function ScoreWithInterval(props: { score: { value: number; low: number; high: number }; set: ContentSet | undefined; schema: SchemaName }) {
  const view = scoreView(props.schema);
  if (!view) return null;
  const config = props.set?.schemaConfig as never;
  const format = (value: number) => view.format(value, config);
  return (
    <IntervalBar
      value={props.score.value}
      low={props.score.low}
      high={props.score.high}
      range={view.range(config)}
      // Every response alike gives a mean a point interval (s = 0): said so, not "−1.00 (−1.00–−1.00)".
      text={
        format(props.score.low) === format(props.score.high)
          ? `${format(props.score.value)} (every response alike)`
          : `${format(props.score.value)} (${format(props.score.low)}–${format(props.score.high)})`
      }
    />
  );
}

/** The schemas whose sets have a score: each is ranked on its own (a share and a mean rating do not compare). */
const SCORED_SCHEMAS = SCHEMAS.filter((schema) => scoreView(schema) !== null);

/** Per scored schema, the worst pages of the last 7 days (ranked by the top of their interval). */
function WorstPages(props: { projectId: string; sets: Map<string, ContentSet> }) {
  const ranked = useWorstItems(props.projectId, SCORED_SCHEMAS);
  const entries = ranked.flatMap((result) => result.data ?? []);
  // Pages of sets beyond the first 20 the project page read name their set too (one read each, cached).
  const missing = [...new Set(entries.map((entry) => entry.contentSetId).filter((id) => !props.sets.has(id)))];
  const fetched = useContentSets(missing);
  const sets = new Map(props.sets);
  fetched.forEach((result, index) => {
    if (result.data) sets.set(missing[index], result.data);
  });
  const failed = ranked.find((result) => result.error);
  if (failed) return <ErrorMessage error={failed.error} retry={() => void Promise.all(ranked.map((result) => result.refetch()))} />;
  if (ranked.some((result) => !result.data)) return <Loading what="the last 7 days" />;
  const schemas = SCORED_SCHEMAS.map((schema, index) => ({ schema, worst: ranked[index].data ?? [] })).filter((entry) => entry.worst.length > 0);
  if (schemas.length === 0) return <p className="muted">No page had {WORST_MIN_COUNT} or more responses in the last 7 days, so none is ranked yet.</p>;
  return schemas.map((entry) => (
    <div key={entry.schema}>
      {schemas.length > 1 && <h4 className="attention-schema">{schemaName(entry.schema)}</h4>}
      <ol className="attention-list" data-testid={`worst-${entry.schema}`}>
        {entry.worst.map((page) => (
          <WorstPage key={page.id} page={page} set={sets.get(page.contentSetId)} schema={entry.schema} />
        ))}
      </ol>
    </div>
  ));
}

function WorstPage(props: { page: ContentItemTopEntry; set: ContentSet | undefined; schema: SchemaName }) {
  const { page, set } = props;
  const name = itemName(page);
  return (
    <li data-item={name}>
      <span className="attention-name">
        <Link href={`/items/${page.id}`}>{name}</Link>
        {set && <span className="muted"> in {set.name}</span>}
      </span>
      {page.score && <ScoreWithInterval score={page.score} set={set} schema={props.schema} />}
      <span className="attention-count muted">{plural(page.stats.count, 'response')}</span>
      <AgainstBefore itemId={page.id} schema={props.schema} />
      {set && <PageReason itemId={page.id} set={set} />}
    </li>
  );
}

/** A worst page's last 7 days against the 7 before (getStats with compare, the item page's read): newly bad, or bad before too. */
function AgainstBefore(props: { itemId: string; schema: SchemaName }) {
  const stats = useStats({ kind: 'item', id: props.itemId }, 'rolling7d', undefined, { compare: true });
  const previous = stats.data?.previous;
  if (!previous || stats.data?.change === undefined) return null;
  const before = `the 7 days before (${periodLabel(resolvedOf(previous))}`;
  return (
    <p className="attention-change small" data-testid="attention-change">
      {stats.data.change === null
        ? `No responses ${before}).`
        : `Against ${before}, ${plural(previous.count, 'response')}): ${changeWords(stats.data.change, props.schema)}.`}
    </p>
  );
}

/** The week's significant drops against the week before, largest first (as a share of their scale). */
function LargestDrops(props: { digest: Digest; sets: Map<string, ContentSet> }) {
  // Drops of different scores compare as shares of their scale (3 stars of 1-5 is 75%).
  const relative = (drop: { change: { delta: number }; schema: SchemaName; contentSetId: string }) => {
    const [low, high] = scoreView(drop.schema)?.range(props.sets.get(drop.contentSetId)?.schemaConfig as never) ?? [0, 1];
    return drop.change.delta / (high - low || 1);
  };
  const drops = props.digest.schemas
    .flatMap((entry) => entry.changes.map((change) => ({ ...change, schema: entry.schema })))
    .filter((entry) => entry.change.significant && entry.change.delta < 0)
    .sort((a, b) => relative(a) - relative(b))
    .slice(0, 5);
  if (drops.length === 0) return <p className="muted">No page fell beyond the noise against the week before.</p>;
  return (
    <ol className="attention-list" data-testid="drops">
      {drops.map((drop) => {
        const view = scoreView(drop.schema);
        const config = props.sets.get(drop.contentSetId)?.schemaConfig as never;
        const format = (value: number) => view?.format(value, config) ?? formatCount(value);
        return (
          <li key={drop.contentItemId} data-item={drop.name}>
            <span className="attention-name">
              <Link href={`/items/${drop.contentItemId}`}>{drop.name}</Link>
            </span>
            <span>
              {view?.name ?? 'the score'} {changeWords(drop.change, drop.schema)}: {format(drop.previous.score.value)} → {format(drop.score.value)}
            </span>
            <span className="attention-count muted">{plural(drop.count, 'response')}</span>
          </li>
        );
      })}
    </ol>
  );
}

function RecentAlerts(props: { projectId: string }) {
  const alerts = useAlerts({ projectId: props.projectId }, 5);
  if (alerts.error) return <ErrorMessage error={alerts.error} retry={() => void alerts.refetch()} />;
  if (!alerts.data) return <Loading what="alerts" />;
  const items = loadedItems(alerts.data).slice(0, 5);
  return (
    <>
      {items.length === 0 ? (
        <p className="muted">No alerts for this project.</p>
      ) : (
        <ol className="alert-list">
          {items.map((alert) => (
            <AlertItem key={alert.id} alert={alert} />
          ))}
        </ol>
      )}
      <p>
        <Link href="/alerts">All alerts</Link>
      </p>
    </>
  );
}

/** The digest's week in words: "16 Nov 2026 – 22 Nov 2026". */
function weekOf(digest: Digest): string {
  return `${formatDate(digest.week.from)} – ${formatDate(digest.week.to)}`;
}

export function NeedsAttention(props: { projectId: string; sets: ContentSet[] }) {
  const sets = new Map(props.sets.map((set) => [set.id, set]));
  const digest = useProjectDigest(props.projectId);
  const lastSevenDays = periodLabel(resolveView('rolling7d', undefined));
  return (
    <div className="needs-attention">
      <section aria-labelledby="attention-worst">
        <h3 id="attention-worst">Worst pages, last 7 days</h3>
        <p className="muted" data-testid="attention-days">
          {lastSevenDays}, today included (UTC), counted up to now. Ranked by the top of each page’s 95% interval (the bar; the mark is its score), so a page
          with few answers is not ranked on luck; pages with fewer than {WORST_MIN_COUNT} responses are left out.
        </p>
        <WorstPages projectId={props.projectId} sets={sets} />
      </section>
      <section aria-labelledby="attention-drops">
        <h3 id="attention-drops">Largest drops last week</h3>
        {digest.data ? (
          <>
            <p className="muted" data-testid="attention-week">
              The week of {weekOf(digest.data)} against the week before (the weekly digest).
            </p>
            <LargestDrops digest={digest.data} sets={sets} />
          </>
        ) : digest.error ? (
          <ErrorMessage error={digest.error} retry={() => void digest.refetch()} />
        ) : (
          <Loading what="last week" />
        )}
      </section>
      <section aria-labelledby="attention-alerts">
        <h3 id="attention-alerts">Recent alerts</h3>
        <RecentAlerts projectId={props.projectId} />
      </section>
    </div>
  );
}
