/**
 * One's own notifications (docs/api.md, "Mail"): what the service mails the signed-in member,
 * their choices, and "send me this week's digest now". A change also refreshes the Members
 * page, which shows admins everyone's settings.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MembersSetNotificationsArguments } from '@feedback-service/client';
import { useSession } from '../session';
import { memberKeys } from './members';

export const notificationKeys = { own: ['notifications'] as const };

/** members/notifications; only a signed-in person has them (an API key has no mailbox). */
export function useNotifications(enabled: boolean) {
  const { client } = useSession();
  return useQuery({ queryKey: notificationKeys.own, queryFn: () => client.members.notifications(), enabled });
}

export function useSetNotifications() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: MembersSetNotificationsArguments[0]) => client.members.setNotifications(settings),
    onSuccess: (notifications) => {
      queryClient.setQueryData(notificationKeys.own, notifications);
      void queryClient.invalidateQueries({ queryKey: memberKeys.list() });
    },
  });
}

/** members/sendDigest: this week's digest of a project, to one's own address now. */
export function useSendDigest() {
  const { client } = useSession();
  return useMutation({ mutationFn: (projectId: string) => client.members.sendDigest(projectId) });
}
