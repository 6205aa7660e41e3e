/** Alerts (alerts/list): their query keys and pages, newest first; the account's alert settings. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertListModel } from '@feedback-service/client';
import { useSession } from '../session';
import { byCursor, cursorOf } from './paging';

/** Whose alerts: the account's (`{}`), a project's or a content set's. */
export type AlertScope = Omit<AlertListModel, '$size' | 'cursor'>;

export const alertKeys = {
  all: ['alerts'] as const,
  lists: () => [...alertKeys.all, 'list'] as const,
  list: (scope: AlertScope, size: number) => [...alertKeys.lists(), scope, size] as const,
  settings: () => [...alertKeys.all, 'settings'] as const,
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

/** The account's false discovery rate (alerts/settings). */
export function useAlertSettings() {
  const { client } = useSession();
  return useQuery({ queryKey: alertKeys.settings(), queryFn: () => client.alerts.settings() });
}

/** An admin sets the account's false discovery rate; the next day's evaluation decides at it. */
export function useSaveAlertSettings() {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (falseDiscoveryRate: number) => client.alerts.saveSettings({ falseDiscoveryRate }),
    onSuccess: (settings) => queryClient.setQueryData(alertKeys.settings(), settings),
  });
}
