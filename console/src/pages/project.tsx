import { useDeferredValue, useId, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { ContentSet, Project, SchemaName as Schema } from '@feedback-service/client';
import { ConfirmDialog, Dialog, FormActions } from '../components/dialog';
import { type Column, ListTable } from '../components/list-table';
import { Page, QueryPageState, Section } from '../components/page';
import { ProjectForm } from '../components/project-form';
import { PeriodSelector, usePeriodView } from '../components/period-selector';
import { SevenDays, SparklineNote } from '../components/sparkline';
import { StatsPanel } from '../components/stats-panel';
import { Empty, ErrorMessage, Loading, NoFeedback } from '../components/states';
import { NeedsAttention } from '../components/needs-attention';
import { TopItems } from '../components/top-items';
import { schemaName } from '../schemas';
import { periodChoiceLabel } from '../lib/periods';
import { useProject, useSaveProject } from '../data/projects';
import { useCreateSet, useProjectSets } from '../data/sets';
import { useStats } from '../data/stats';
import { HELD_COUNT_LIMIT, useHeldCount } from '../data/responses';
import { useSession } from '../session';
import { SCHEMAS } from '../../../shared/schema-options';

function RenameProjectDialog(props: { project: Project; open: boolean; onClose: () => void }) {
  const save = useSaveProject(props.project.id, { onSuccess: props.onClose });
  return (
    <Dialog open={props.open} title="Rename project" onClose={props.onClose}>
      <ProjectForm
        initial={props.project}
        descriptionLabel="Description"
        submitLabel="Save"
        busy={save.isPending}
        error={save.error}
        onSubmit={(fields) => save.mutate(fields)}
        onCancel={props.onClose}
      />
    </Dialog>
  );
}

const PRESETS = [
  { value: 'github', label: 'GitHub emoji (👍 👎 😄 😕 ❤️ 🎉 🚀 👀)' },
  { value: 'facebook', label: 'Facebook (👍 ❤️ 😄 😮 😥 😡)' },
  { value: 'feeling', label: 'Feeling (happy, neutral, sad)' },
  { value: 'evaluation', label: 'Evaluation (love it … hate it)' },
] as const;

function NewSetDialog(props: { projectId: string; open: boolean; onClose: () => void }) {
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [schema, setSchema] = useState<Schema>('yes-no');
  const [preset, setPreset] = useState<(typeof PRESETS)[number]['value']>('github');
  const [ratingMax, setRatingMax] = useState(5);
  const ids = { name: useId(), key: useId(), schema: useId(), preset: useId(), rating: useId() };
  const create = useCreateSet({
    onSuccess: (set) => {
      props.onClose();
      navigate(`/sets/${set.id}/embed`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      projectId: props.projectId,
      key:
        key.trim() ||
        name
          .trim()
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 30) ||
        'set',
      schema,
      schemaConfig: schema === 'reaction' ? { preset } : schema === 'rating' ? { min: 1, max: ratingMax, step: 1 } : undefined,
      metadata: { name: name.trim() },
    });
  };
  return (
    <Dialog open={props.open} title="New content set" onClose={props.onClose}>
      <form onSubmit={submit} className="form">
        <label htmlFor={ids.name}>Name</label>
        <input id={ids.name} value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required />
        <label htmlFor={ids.key}>Key (unique in the project; default from the name)</label>
        <input id={ids.key} value={key} onChange={(event) => setKey(event.target.value)} maxLength={30} />
        <label htmlFor={ids.schema}>What visitors answer</label>
        <select id={ids.schema} value={schema} onChange={(event) => setSchema(event.target.value as Schema)}>
          {SCHEMAS.map((value) => (
            <option key={value} value={value}>
              {schemaName(value)}
            </option>
          ))}
        </select>
        {schema === 'reaction' && (
          <>
            <label htmlFor={ids.preset}>Reactions</label>
            <select id={ids.preset} value={preset} onChange={(event) => setPreset(event.target.value as typeof preset)}>
              {PRESETS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </>
        )}
        {schema === 'rating' && (
          <>
            <label htmlFor={ids.rating}>Scale</label>
            <select id={ids.rating} value={ratingMax} onChange={(event) => setRatingMax(Number(event.target.value))}>
              <option value={5}>1 to 5</option>
              <option value={10}>1 to 10</option>
            </select>
          </>
        )}
        <p className="hint">The schema and its options cannot change later (counts are kept per option).</p>
        <FormActions error={create.error} submitLabel="Create content set" disabled={create.isPending || name.trim() === ''} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

const SET_COLUMNS: Column<ContentSet>[] = [
  { header: 'Name', cell: (set) => <Link href={`/sets/${set.id}`}>{set.name}</Link> },
  { header: 'Key', cell: (set) => <code>{set.key}</code> },
  { header: 'Schema', cell: (set) => schemaName(set.schema) },
  { header: 'State', cell: (set) => <span className={`state state-${set.state}`}>{set.state}</span> },
  { header: 'Last 7 days', cell: (set) => <SevenDays subject={{ kind: 'set', id: set.id }} name={set.name} /> },
];

function SetsTable(props: { projectId: string; isAdmin: boolean; onCreate: () => void }) {
  const [text, setText] = useState('');
  const search = useDeferredValue(text.trim());
  const sets = useProjectSets(props.projectId, search);
  const searchId = useId();
  if (sets.error) return <ErrorMessage error={sets.error} retry={() => void sets.refetch()} />;
  if (!sets.data) return <Loading what="content sets" />;
  if (sets.data.length === 0 && !search) {
    return (
      <Empty title="No content sets yet">
        A content set is one kind of question (a like button, reactions, a rating, a feedback form) asked on many pages.{' '}
        {props.isAdmin ? (
          <button type="button" className="link-button" onClick={props.onCreate}>
            Create the first one
          </button>
        ) : (
          'An admin of your account creates them.'
        )}
      </Empty>
    );
  }
  return (
    <>
      <div className="toolbar">
        <label htmlFor={searchId} className="inline-label">
          Find a set
        </label>
        <input id={searchId} type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="Name or key" />
      </div>
      <ListTable caption="Content sets" columns={SET_COLUMNS} rows={sets.data} rowKey={(set) => set.id} rowData={(set) => ({ 'data-set': set.name })} />
      <SparklineNote />
      {sets.data.length >= 20 && <p className="note">Showing the first 20 sets; type to narrow the list.</p>}
    </>
  );
}

export function ProjectPage(props: { projectId: string }) {
  const { isAdmin } = useSession();
  const project = useProject(props.projectId);
  const [view, setView] = usePeriodView();
  const subject = { kind: 'project' as const, id: props.projectId };
  const stats = useStats(subject, view.period, view.reference);
  const [renaming, setRenaming] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [creatingSet, setCreatingSet] = useState(false);
  const archive = useSaveProject(props.projectId, { onSuccess: () => setArchiving(false) });
  // The same first 20 sets the table lists (one request for both): which scored schemas the project has.
  const sets = useProjectSets(props.projectId);
  const crumbs = [{ label: 'Projects', href: '/projects' }];
  if (project.error || !project.data) return <QueryPageState title="Project" crumbs={crumbs} what="project" query={project} />;
  const data = project.data;
  const archived = data.state === 'archived';
  return (
    <Page
      title={data.name}
      kicker="Project"
      crumbs={crumbs}
      subtitle={
        <>
          <span className={`state state-${data.state}`}>{data.state}</span>{' '}
          {data.metadata.description && <span className="muted">{data.metadata.description}</span>}
        </>
      }
      actions={
        <>
          <Link href={`/projects/${data.id}/responses`} className="button">
            Responses
          </Link>
          <ReviewLink projectId={data.id} />
          {isAdmin && (
            <>
              <button type="button" onClick={() => setCreatingSet(true)}>
                New content set
              </button>
              <button type="button" onClick={() => setRenaming(true)}>
                Rename
              </button>
              <button type="button" onClick={() => (archived ? archive.mutate({ state: 'active' }) : setArchiving(true))}>
                {archived ? 'Unarchive' : 'Archive'}
              </button>
            </>
          )}
        </>
      }
    >
      {archive.error && <ErrorMessage error={archive.error} retry={null} />}
      <Section title="Responses over time">
        <PeriodSelector view={view} onChange={setView} lifetimeStart={stats.data?.period === 'lifetime' ? stats.data.referenceDate : undefined} />
        <StatsPanel
          stats={stats.data}
          error={stats.error}
          retry={() => void stats.refetch()}
          title={`Responses to ${data.name}, ${periodChoiceLabel(view.period).toLowerCase()}`}
        />
      </Section>
      <Section title="Needs attention">
        {sets.error ? (
          <ErrorMessage error={sets.error} retry={() => void sets.refetch()} />
        ) : sets.data ? (
          <NeedsAttention projectId={data.id} sets={sets.data} />
        ) : (
          <Loading what="what needs attention" />
        )}
      </Section>
      <Section title="Content sets">
        <SetsTable projectId={data.id} isAdmin={isAdmin} onCreate={() => setCreatingSet(true)} />
      </Section>
      <Section title="Top content items">
        <TopItems
          scope={{ projectId: data.id }}
          period={view.period}
          reference={view.reference}
          onShowCurrent={() => setView({ period: view.period, reference: undefined })}
          lifetimeStart={stats.data?.period === 'lifetime' ? stats.data.referenceDate : undefined}
          empty={<NoFeedback what="No content item has responses in this period yet." />}
        />
      </Section>
      {isAdmin && (
        <>
          <RenameProjectDialog key={`${data.name}|${renaming}`} project={data} open={renaming} onClose={() => setRenaming(false)} />
          <NewSetDialog projectId={data.id} open={creatingSet} onClose={() => setCreatingSet(false)} />
          <ConfirmDialog
            open={archiving}
            title={`Archive ${data.name}?`}
            confirmLabel="Archive project"
            busy={archive.isPending}
            onConfirm={() => archive.mutate({ state: 'archived' })}
            onClose={() => setArchiving(false)}
          >
            <p>An archived project takes no more responses; its sets and statistics stay readable. You can unarchive it later.</p>
          </ConfirmDialog>
        </>
      )}
    </Page>
  );
}

/** The way to the project's review, with how many held responses wait there. */
function ReviewLink(props: { projectId: string }) {
  const held = useHeldCount(props.projectId);
  const waiting = held.data ? (held.data.more ? `${HELD_COUNT_LIMIT}+` : String(held.data.count)) : undefined;
  return (
    <Link href={`/projects/${props.projectId}/review`} className="button" data-testid="review-link">
      Review{waiting !== undefined && ` (${waiting} waiting)`}
    </Link>
  );
}
