/** The account's audit log: its query keys and the paged, filtered list. */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditListModel } from '@feedback-service/client';
import { useSession } from '../session';
import { byCursor, cursorOf } from './paging';

export type AuditQuery = Omit<AuditListModel, '$size' | 'cursor'>;

export const auditKeys = {
  all: ['audit'] as const,
  list: (query: AuditQuery) => [...auditKeys.all, 'list', query] as const,
};

export function useAuditEntries(query: AuditQuery) {
  const { client } = useSession();
  return useInfiniteQuery({
    queryKey: auditKeys.list(query),
    queryFn: ({ pageParam }) => client.audit.list({ $size: 50, ...query, ...cursorOf(pageParam) }),
    ...byCursor,
  });
}
