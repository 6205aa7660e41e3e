import type { ProjectCreateModel, ProjectFilters, ProjectSaveModel } from '../api/models';
import { notFound } from '../api/errors';
import { isConditionFailure } from '../store/conditions';
import { indexedPrefix, newId } from '../domain/text';
import type { ProjectItem, Store } from '../store/entities';
import { LOOKUP_PAGE, prefixLookup, stateMatches } from './lookup';
import { projectView } from './views';

/** A project of the account, or not-found (also when it belongs to another account). */
export async function loadProject(store: Store, accountId: string, projectId: string): Promise<ProjectItem> {
  const { data } = await store.entities.Project.get({ id: projectId }).go({ consistent: true });
  if (!data || data.accountId !== accountId) throw notFound('Project', projectId);
  return data;
}

export async function getProject(store: Store, accountId: string, projectId: string) {
  return projectView(await loadProject(store, accountId, projectId));
}

export async function createProject(store: Store, accountId: string, input: ProjectCreateModel, now: Date) {
  const timestamp = now.toISOString();
  const { data } = await store.entities.Project.create({
    id: newId(),
    accountId,
    name: input.name,
    nameLower: indexedPrefix(input.name),
    description: input.description,
    state: 'active',
    createdAt: timestamp,
    updatedAt: timestamp,
  }).go();
  return projectView(data);
}

/** Applies only the given fields, in one conditional update (absent or other account: not-found). */
export async function saveProject(store: Store, accountId: string, projectId: string, input: ProjectSaveModel, now: Date) {
  const changes = {
    ...(input.name === undefined ? {} : { name: input.name, nameLower: indexedPrefix(input.name) }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.state === undefined ? {} : { state: input.state }),
    updatedAt: now.toISOString(),
  };
  try {
    const { data } = await store.entities.Project.patch({ id: projectId })
      .set(changes)
      .where((attributes, { eq }) => eq(attributes.accountId, accountId))
      .go({ response: 'all_new' });
    return projectView(data as ProjectItem);
  } catch (error) {
    if (isConditionFailure(error)) throw notFound('Project', projectId);
    throw error;
  }
}

export async function lookupProjects(store: Store, accountId: string, text: string, filters: ProjectFilters) {
  const state = filters.state ?? 'active';
  const found = await prefixLookup<ProjectItem>({
    text,
    byId: async (id) => (await store.entities.Project.get({ id }).go()).data,
    indexes: [
      (cursor) =>
        store.entities.Project.query
          .byName({ accountId })
          .begins({ nameLower: indexedPrefix(text) })
          .go({ ...LOOKUP_PAGE, cursor }),
    ],
    matches: (project) => project.accountId === accountId && stateMatches(state, project.state),
  });
  return found.map(projectView);
}
