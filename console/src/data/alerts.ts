/** Alerts (alerts/list): their query keys and pages, newest first. */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { AlertListModel } from '@feedback-service/client';
import { useSession } from '../session';
import { byCursor, cursorOf } from './paging';

/** Whose alerts: the account's (`{}`), a project's or a content set's. */
export type AlertScope = Omit<AlertListModel, '$size' | 'cursor'>;

export const alertKeys = {
  all: ['alerts'] as const,
  lists: () => [...alertKeys.all, 'list'] as const,
  list: (scope: AlertScope, size: number) => [...alertKeys.lists(), scope, size] as const,
};

/** A scope's alerts, `size` a page (the project page's few, the Alerts page's many). */
export function useAlerts(scope: AlertScope, size = 50) {
  const { client } = useSession();
  return useInfiniteQuery({
    queryKey: alertKeys.list(scope, size),
    queryFn: ({ pageParam }) => client.alerts.list({ ...scope, $size: size, ...cursorOf(pageParam) }),
    ...byCursor,
  });
}
