/** Projects: their query keys, reads and writes. */
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectCreateModel, ProjectSaveModel, Project } from '@feedback-service/client';
import { useSession } from '../session';
import type { Then } from './paging';

export interface ProjectLookup {
  text: string;
  /** Archived projects too. */
  archived: boolean;
}

export const projectKeys = {
  all: ['projects'] as const,
  lists: () => [...projectKeys.all, 'list'] as const,
  list: (lookup: ProjectLookup) => [...projectKeys.lists(), lookup] as const,
  details: () => [...projectKeys.all, 'detail'] as const,
  detail: (id: string | undefined) => [...projectKeys.details(), id] as const,
  /** A project's digest of its last complete week. */
  digest: (id: string) => [...projectKeys.all, 'digest', id] as const,
};

export function useProject(id: string | undefined) {
  const { client } = useSession();
  return useQuery({ queryKey: projectKeys.detail(id), queryFn: () => client.projects.get(id!), enabled: Boolean(id) });
}

/** A project's last complete week (projects/digest): its best, worst and most changed pages per scored schema, and its alerts. */
export function useProjectDigest(id: string) {
  const { client } = useSession();
  return useQuery({ queryKey: projectKeys.digest(id), queryFn: () => client.projects.digest(id) });
}

/** Several projects by id (one read each, cached like `useProject`), for labels and links. */
export function useProjects(ids: string[]) {
  const { client } = useSession();
  return useQueries({ queries: ids.map((id) => ({ queryKey: projectKeys.detail(id), queryFn: () => client.projects.get(id) })) });
}

/** Projects by name or id (the first 20 by name), active ones or all. */
export function useProjectLookup(lookup: ProjectLookup) {
  const { client } = useSession();
  return useQuery({
    queryKey: projectKeys.list(lookup),
    queryFn: () => client.projects.lookup(lookup.text, { state: lookup.archived ? 'all' : 'active' }),
  });
}

export function useCreateProject(then: Then<Project> = {}) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProjectCreateModel) => client.projects.create(input),
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      then.onSuccess?.(project);
    },
  });
}

/** Renames, describes, archives or unarchives a project. */
export function useSaveProject(id: string, then: Then<Project> = {}) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProjectSaveModel) => client.projects.save(id, changes),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      then.onSuccess?.(project);
    },
  });
}
