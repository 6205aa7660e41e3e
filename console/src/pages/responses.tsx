import { Page, PageState } from '../components/page';
import { ResponsesList } from '../components/responses';
import { ErrorMessage, Loading } from '../components/states';
import { useProject } from '../data/projects';
import { useContentSet } from '../data/sets';

/** The responses of a project or of a content set. */
export function ResponsesPage(props: { scope: { projectId: string } | { contentSetId: string } }) {
  const setId = 'contentSetId' in props.scope ? props.scope.contentSetId : undefined;
  const set = useContentSet(setId);
  const projectId = 'projectId' in props.scope ? props.scope.projectId : set.data?.projectId;
  const project = useProject(projectId);
  const owner = setId ? set : project;
  const crumbs = [{ label: 'Projects', href: '/projects' }];
  if (owner.error)
    return (
      <PageState title="Responses" crumbs={crumbs}>
        <ErrorMessage error={owner.error} retry={() => void owner.refetch()} />
      </PageState>
    );
  if (!owner.data || (setId && !set.data))
    return (
      <PageState title="Responses">
        <Loading what="responses" />
      </PageState>
    );
  if (projectId) crumbs.push({ label: project.data?.name ?? 'Project', href: `/projects/${projectId}` });
  if (set.data) crumbs.push({ label: set.data.name, href: `/sets/${set.data.id}` });
  return (
    <Page title={`Responses to ${owner.data.name}`} kicker={set.data ? 'Content set' : 'Project'} crumbs={crumbs}>
      <ResponsesList scope={props.scope} set={set.data} embedHref={set.data ? `/sets/${set.data.id}/embed` : undefined} />
    </Page>
  );
}
