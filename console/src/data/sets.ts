/** Content sets: their query keys, reads and writes. */
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContentSet, ContentSetCreateModel, ContentSetSaveModel } from '@feedback-service/client';
import { useSession } from '../session';
import type { Then } from './paging';

export const setKeys = {
  all: ['sets'] as const,
  /** Every list of one project's sets, whatever the search. */
  lists: (projectId: string) => [...setKeys.all, 'list', projectId] as const,
  list: (projectId: string, text: string) => [...setKeys.lists(projectId), text] as const,
  details: () => [...setKeys.all, 'detail'] as const,
  detail: (id: string | undefined) => [...setKeys.details(), id] as const,
};

export function useContentSet(id: string | undefined) {
  const { client } = useSession();
  return useQuery({ queryKey: setKeys.detail(id), queryFn: () => client.sets.get(id!), enabled: id !== undefined });
}

/** Several sets by id (one read each, cached like `useContentSet`), for labels and links. */
export function useContentSets(ids: string[]) {
  const { client } = useSession();
  return useQueries({ queries: ids.map((id) => ({ queryKey: setKeys.detail(id), queryFn: () => client.sets.get(id) })) });
}

/** A project's sets in every state, by name or key (the first 20). */
export function useProjectSets(projectId: string, text = '') {
  const { client } = useSession();
  return useQuery({ queryKey: setKeys.list(projectId, text), queryFn: () => client.sets.lookup(text, { projectId, state: 'all' }) });
}

export function useCreateSet(then: Then<ContentSet> = {}) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ContentSetCreateModel) => client.sets.create(input),
    onSuccess: (set) => {
      void queryClient.invalidateQueries({ queryKey: setKeys.lists(set.projectId) });
      then.onSuccess?.(set);
    },
  });
}

export function useSaveSet(id: string, then: Then<ContentSet> = {}) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ContentSetSaveModel) => client.sets.save(id, changes),
    onSuccess: (set) => {
      queryClient.setQueryData(setKeys.detail(set.id), set);
      void queryClient.invalidateQueries({ queryKey: setKeys.lists(set.projectId) });
      then.onSuccess?.(set);
    },
  });
}
