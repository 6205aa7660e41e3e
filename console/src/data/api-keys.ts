/** The account's API keys: their query keys, the paged list, creation and revocation. */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { KeysCreateArguments } from '@feedback-service/client';
import { useSession } from '../session';
import { byCursor, cursorOf, type Then } from './paging';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  lists: () => [...apiKeyKeys.all, 'list'] as const,
};

export function useApiKeys() {
  const { client } = useSession();
  return useInfiniteQuery({
    queryKey: apiKeyKeys.lists(),
    queryFn: ({ pageParam }) => client.keys.list({ $size: 50, ...cursorOf(pageParam) }),
    ...byCursor,
  });
}

export function useCreateApiKey() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: KeysCreateArguments[0]) => client.keys.create(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() }),
  });
}

export function useRevokeApiKey(then: Then<unknown> = {}) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.keys.revoke(id),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() });
      then.onSuccess?.(result);
    },
  });
}
