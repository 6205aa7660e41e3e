import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { Project } from '@feedback-service/client';
import { Dialog } from '../components/dialog';
import { type ProjectFields, ProjectForm } from '../components/project-form';
import { Page } from '../components/page';
import { ErrorMessage, Loading } from '../components/states';
import { formatCount, formatDate } from '../lib/format';
import { useStats } from '../lib/queries';
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

export function CreateProjectDialog(props: { open: boolean; onClose: () => void }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const create = useMutation({
    mutationFn: ({ name, description }: ProjectFields) => client.projects.create({ name, ...(description ? { description } : {}) }),
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
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
        onSubmit={(fields) => create.mutate(fields)}
        onCancel={props.onClose}
      />
    </Dialog>
  );
}

export function ProjectsPage() {
  const { client, isAdmin } = useSession();
  const [text, setText] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const [creating, setCreating] = useState(false);
  const search = useDeferredValue(text.trim());
  const searchId = useId();
  const projects = useQuery({
    queryKey: ['projects', search, showArchived],
    queryFn: () => client.projects.lookup(search, { state: showArchived ? 'all' : 'active' }),
  });
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
      ) : projects.data.length === 0 ? (
        <div className="empty">
          <p className="empty-title">{search ? 'No project matches' : 'No projects yet'}</p>
          <p>
            {search
              ? 'Try another name.'
              : isAdmin
                ? 'Create a project, add a content set, then embed its widget on your pages.'
                : 'An admin of your account creates projects.'}
          </p>
        </div>
      ) : (
        <>
          <div className="table-scroll">
            <table className="list-table">
              <caption className="visually-hidden">Projects</caption>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">State</th>
                  <th scope="col" className="number">
                    Last 7 days
                  </th>
                  <th scope="col" className="number">
                    Lifetime
                  </th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {projects.data.map((project: Project) => (
                  <tr key={project.id} data-project={project.name}>
                    <th scope="row">
                      <Link href={`/projects/${project.id}`}>{project.name}</Link>
                      {project.metadata.description && <div className="muted small">{project.metadata.description}</div>}
                    </th>
                    <td>
                      <span className={`state state-${project.state}`}>{project.state}</span>
                    </td>
                    <td className="number">
                      <Count projectId={project.id} period="rolling7d" testId="project-7d" />
                    </td>
                    <td className="number">
                      <Count projectId={project.id} period="lifetime" testId="project-lifetime" />
                    </td>
                    <td>{formatDate(project.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {projects.data.length >= LOOKUP_LIMIT && <p className="note">Showing the first {LOOKUP_LIMIT} projects by name; type to narrow the list.</p>}
        </>
      )}
      {isAdmin && <CreateProjectDialog open={creating} onClose={() => setCreating(false)} />}
    </Page>
  );
}
