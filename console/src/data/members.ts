/** The account's members: the list, invitations, role changes, removal, and accepting an invitation. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MembersInviteArguments, Role } from '@feedback-service/client';
import { useSession } from '../session';

export const memberKeys = {
  all: ['members'] as const,
  list: () => [...memberKeys.all, 'list'] as const,
};

export function useMembers() {
  const { client } = useSession();
  return useQuery({ queryKey: memberKeys.list(), queryFn: () => client.members.list({ $size: 100 }) });
}

export function useInviteMember() {
  const { client } = useSession();
  return useMutation({ mutationFn: (input: MembersInviteArguments[0]) => client.members.invite(input) });
}

export function useSetMemberRole() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; role: Role }) => client.members.setRole(input.id, input.role),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}

export function useRemoveMember(onSuccess?: () => void) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.members.remove(id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: memberKeys.all });
      onSuccess?.();
    },
  });
}

/**
 * Accepts an invitation once: a query (never refetched) rather than a mutation, so the answer
 * outlives a remount of the page (the token is single-use).
 */
export function useAcceptInvitation(token: string | undefined, enabled: boolean) {
  const { client } = useSession();
  return useQuery({
    queryKey: ['members/accept', token],
    queryFn: () => client.members.accept(token!),
    enabled: enabled && Boolean(token),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnMount: false,
    refetchOnReconnect: false,
  });
}
