import { useDeferredValue, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { Project } from '@feedback-service/client';
import { Dialog } from '../components/dialog';
import { type Column, ListTable } from '../components/list-table';
import { type ProjectFields, ProjectForm } from '../components/project-form';
import { Page } from '../components/page';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { formatCount, formatDate } from '../lib/format';
import { useCreateProject, useProjectLookup } from '../data/projects';
import { useStats } from '../data/stats';
import { useSession } from '../session';

const LOOKUP_LIMIT = 20;

function Count(props: { projectId: string; period: 'rolling7d' | 'lifetime'; testId: string }) {
  const stats = useStats({ kind: 'project', id: props.projectId }, props.period);
  if (stats.error) return <span className="muted">–</span>;
  return (
    <span className="number" data-testid={props.testId}>
      {stats.data ? formatCount(stats.data.count) : '…'}
    </span>
  );
}

const COLUMNS: Column<Project>[] = [
  {
    header: 'Project',
    cell: (project) => (
      <>
        <Link href={`/projects/${project.id}`}>{project.name}</Link>
        {project.metadata.description && <div className="muted small">{project.metadata.description}</div>}
      </>
    ),
  },
  { header: 'State', cell: (project) => <span className={`state state-${project.state}`}>{project.state}</span> },
  { header: 'Last 7 days', number: true, cell: (project) => <Count projectId={project.id} period="rolling7d" testId="project-7d" /> },
  { header: 'Lifetime', number: true, cell: (project) => <Count projectId={project.id} period="lifetime" testId="project-lifetime" /> },
  { header: 'Created', cell: (project) => formatDate(project.createdAt) },
];

export function CreateProjectDialog(props: { open: boolean; onClose: () => void }) {
  const [, navigate] = useLocation();
  const create = useCreateProject({
    onSuccess: (project) => {
      props.onClose();
      navigate(`/projects/${project.id}`);
    },
  });
  return (
    <Dialog open={props.open} title="New project" onClose={props.onClose}>
      <ProjectForm
        descriptionLabel="Description (optional)"
        submitLabel="Create project"
        busy={create.isPending}
        error={create.error}
        onSubmit={({ name, description }: ProjectFields) => create.mutate({ name, ...(description ? { description } : {}) })}
        onCancel={props.onClose}
      />
    </Dialog>
  );
}

export function ProjectsPage() {
  const { isAdmin } = useSession();
  const [text, setText] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const [creating, setCreating] = useState(false);
  const search = useDeferredValue(text.trim());
  const searchId = useId();
  const projects = useProjectLookup({ text: search, archived: showArchived });
  return (
    <Page
      title="Projects"
      subtitle="Each project groups the content sets of one site or product."
      actions={
        isAdmin && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New project
          </button>
        )
      }
    >
      <div className="toolbar">
        <label htmlFor={searchId} className="inline-label">
          Find a project
        </label>
        <input id={searchId} type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="Name or id" />
        <label className="checkbox">
          <input type="checkbox" checked={showArchived} onChange={(event) => setShowArchived(event.target.checked)} /> Show archived
        </label>
      </div>
      {projects.error ? (
        <ErrorMessage error={projects.error} retry={() => void projects.refetch()} />
      ) : !projects.data ? (
        <Loading what="projects" />
      ) : (
        <>
          <ListTable
            caption="Projects"
            columns={COLUMNS}
            rows={projects.data}
            rowKey={(project) => project.id}
            rowData={(project) => ({ 'data-project': project.name })}
            empty={
              <Empty title={search ? 'No project matches' : 'No projects yet'}>
                {search
                  ? 'Try another name.'
                  : isAdmin
                    ? 'Create a project, add a content set, then embed its widget on your pages.'
                    : 'An admin of your account creates projects.'}
              </Empty>
            }
          />
          {projects.data.length >= LOOKUP_LIMIT && <p className="note">Showing the first {LOOKUP_LIMIT} projects by name; type to narrow the list.</p>}
        </>
      )}
      {isAdmin && <CreateProjectDialog open={creating} onClose={() => setCreating(false)} />}
    </Page>
  );
}
