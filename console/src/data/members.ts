/**
 * The account's members: the list, invitations (pending ones, withdrawing, what a link
 * invites to), role changes, removal, accepting an invitation, and the account's name. A removal or demotion also revokes keys and
 * invitations the member made, so it refreshes the keys' list too.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createClient, type MembersInviteArguments, type Role } from '@feedback-service/client';
import { readableNamesFetch } from '../lib/readable-names';
import { API_BASE_URL, useSession } from '../session';
import { apiKeyKeys } from './api-keys';

export const memberKeys = {
  all: ['members'] as const,
  list: () => [...memberKeys.all, 'list'] as const,
  invitations: () => [...memberKeys.all, 'invitations'] as const,
  invitedTo: (token: string) => [...memberKeys.all, 'invitedTo', token] as const,
};

/**
 * People join (accepting a link elsewhere) and leave without this tab knowing: the lists are
 * read again whenever the tab regains focus, besides after every change made here.
 */
const REFETCH_ON_FOCUS = { refetchOnWindowFocus: 'always' } as const;

export function useMembers() {
  const { client } = useSession();
  return useQuery({ queryKey: memberKeys.list(), queryFn: () => client.members.list({ $size: 100 }), ...REFETCH_ON_FOCUS });
}

/** The pending invitations (the first 100, newest first). */
export function useInvitations() {
  const { client } = useSession();
  return useQuery({ queryKey: memberKeys.invitations(), queryFn: () => client.members.invitations({ $size: 100 }), ...REFETCH_ON_FOCUS });
}

/** What an invitation link invites to, read before anyone signs in (members/invitedTo needs no credential). */
export function useInvitedTo(token: string | undefined) {
  return useQuery({
    queryKey: memberKeys.invitedTo(token ?? ''),
    queryFn: () => createClient({ baseUrl: API_BASE_URL, fetch: readableNamesFetch }).members.invitedTo(token!),
    enabled: Boolean(token),
    retry: false,
  });
}

/** An owner names the account; the session's members/me then says the new name. */
export function useRenameAccount() {
  const { client, refreshMe } = useSession();
  return useMutation({
    mutationFn: (name: string) => client.members.renameAccount(name),
    onSuccess: () => void refreshMe(),
  });
}

export function useInviteMember() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MembersInviteArguments[0]) => client.members.invite(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: memberKeys.invitations() }),
  });
}

export function useWithdrawInvitation(onSuccess?: () => void) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.members.withdraw(id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: memberKeys.invitations() });
      onSuccess?.();
    },
  });
}

/** After a change of a member: what they made may have been revoked with it. */
function invalidateMade(queryClient: ReturnType<typeof useQueryClient>) {
  void queryClient.invalidateQueries({ queryKey: memberKeys.all });
  void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all });
}

export function useSetMemberRole() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; role: Role }) => client.members.setRole(input.id, input.role),
    onSuccess: () => invalidateMade(queryClient),
  });
}

export function useRemoveMember(onSuccess?: () => void) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.members.remove(id),
    onSuccess: () => {
      invalidateMade(queryClient);
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
