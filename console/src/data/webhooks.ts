/** Webhooks and their delivery log: query keys, reads and writes. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Delivery, Webhook, WebhooksCreateArguments, WebhooksSaveArguments } from '@feedback-service/client';
import { useSession } from '../session';
import { byCursor, cursorOf, type Then } from './paging';

export type DeliveryStatus = Delivery['status'];

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  details: () => [...webhookKeys.all, 'detail'] as const,
  detail: (id: string) => [...webhookKeys.details(), id] as const,
  /** Every view of one webhook's delivery log, whatever the status filter. */
  deliveries: (webhookId: string) => [...webhookKeys.all, 'deliveries', webhookId] as const,
  deliveryList: (webhookId: string, status: DeliveryStatus | '') => [...webhookKeys.deliveries(webhookId), status] as const,
};

export function useWebhooks() {
  const { webhooks } = useSession().client;
  return useInfiniteQuery({
    queryKey: webhookKeys.lists(),
    queryFn: ({ pageParam }) => webhooks.list({ $size: 50, ...cursorOf(pageParam) }),
    ...byCursor,
  });
}

export function useWebhook(id: string) {
  const { webhooks } = useSession().client;
  return useQuery({ queryKey: webhookKeys.detail(id), queryFn: () => webhooks.get(id) });
}

/** A webhook's deliveries, newest first, of one status or all, read again every five seconds. */
export function useDeliveries(webhookId: string, status: DeliveryStatus | '', pageSize: number) {
  const { webhooks } = useSession().client;
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveryList(webhookId, status),
    queryFn: ({ pageParam }) => webhooks.deliveries({ webhookId, $size: pageSize, ...(status ? { status } : {}), ...cursorOf(pageParam) }),
    ...byCursor,
    refetchInterval: 5000,
  });
}

export function useCreateWebhook() {
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhooksCreateArguments[0]) => webhooks.create(input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.lists() }),
  });
}

/** Changes a webhook: its fields, or enables or disables it. */
export function useSaveWebhook(id: string, then: Then<Webhook> = {}) {
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: WebhooksSaveArguments[1]) => webhooks.save(id, changes),
    onSuccess: (saved) => {
      queryClient.setQueryData(webhookKeys.detail(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.lists() });
      then.onSuccess?.(saved);
    },
  });
}

export function useRemoveWebhook(id: string, then: Then<unknown> = {}) {
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => webhooks.remove(id),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: webhookKeys.lists() });
      then.onSuccess?.(result);
    },
  });
}

/** One signed test event, sent now; it shows in the delivery log whatever its outcome. */
export function useTestWebhook(id: string) {
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => webhooks.test(id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}

export function useRotateWebhookSecret(id: string) {
  const { webhooks } = useSession().client;
  return useMutation({ mutationFn: () => webhooks.rotateSecret(id) });
}

export function useRedeliver(webhookId: string) {
  const { webhooks } = useSession().client;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => webhooks.redeliver(deliveryId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(webhookId) }),
  });
}
