/**
 * Themes of free-text messages (contents/themes, sets/themes, projects/themes) and their
 * curation (sets/curateThemes, sets/themeCurations): query keys, reads and the curation.
 */
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ThemeCuration, ThemeCurationResult, ThemesFilter } from '@feedback-service/client';
import type { StatPeriod } from '../lib/periods';
import { useSession } from '../session';
import type { Then } from './paging';
import { type Subject, subjectResource } from './stats';

/** What a themes read asks for besides its subject: the period, a tag, the comparison, how many. */
export interface ThemesQuery {
  period: StatPeriod;
  /** `YYYY-MM-DD` in the period, or undefined for the current one. */
  reference?: string;
  /** A tagged-message set's tag, or undefined for every message. */
  tag?: string;
  /** With the previous period and the change (not for lifetime, which has none before it). */
  compare?: boolean;
  size?: number;
  examples?: number;
}

export const themeKeys = {
  all: ['themes'] as const,
  /** Every themes read of a subject, whatever the period. */
  subject: (subject: Subject) => [...themeKeys.all, subject.kind, subject.id] as const,
  of: (subject: Subject, query: ThemesQuery) => [...themeKeys.subject(subject), query] as const,
  curations: (setId: string) => [...themeKeys.all, 'curations', setId] as const,
};

function themesFilter(query: ThemesQuery): ThemesFilter {
  return {
    period: query.period,
    ...(query.reference ? { reference: query.reference } : {}),
    ...(query.tag ? { tag: query.tag } : {}),
    ...(query.compare && query.period !== 'lifetime' ? { compare: 'previous' as const } : {}),
    ...(query.size !== undefined ? { $size: query.size } : {}),
    ...(query.examples !== undefined ? { $examples: query.examples } : {}),
  };
}

/**
 * A subject's themes and standout phrases in a period. `refreshEvery` (ms) reads them again
 * while set: after a curation, whose effect the themes job shows at its next run.
 */
export function useThemes(subject: Subject, query: ThemesQuery, options: { enabled?: boolean; refreshEvery?: number } = {}) {
  const { client } = useSession();
  const normalized = { ...query, compare: (query.compare ?? false) && query.period !== 'lifetime' };
  return useQuery({
    queryKey: themeKeys.of(subject, normalized),
    queryFn: () => subjectResource(client, subject).themes(subject.id, themesFilter(normalized)),
    enabled: options.enabled ?? true,
    refetchInterval: options.refreshEvery ?? false,
  });
}

/** A set's curation records, oldest first. */
export function useThemeCurations(setId: string, options: { enabled?: boolean } = {}) {
  const { client } = useSession();
  return useQuery({ queryKey: themeKeys.curations(setId), queryFn: () => client.sets.themeCurations(setId), enabled: options.enabled ?? true });
}

/** Several sets' curation records (one read each, cached like `useThemeCurations`), for the audit log's words. */
export function useThemeCurationsOf(setIds: string[]) {
  const { client } = useSession();
  return useQueries({ queries: setIds.map((setId) => ({ queryKey: themeKeys.curations(setId), queryFn: () => client.sets.themeCurations(setId) })) });
}

/** An admin's curation of a set's themes; the set's curations and every themes read are read again. */
export function useCurateThemes(setId: string, then: Then<ThemeCurationResult> = {}) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (curation: ThemeCuration) => client.sets.curateThemes(setId, curation),
    onSuccess: (result) => {
      queryClient.setQueryData<ThemeCurationResult[]>(themeKeys.curations(setId), (records) => (records ? [...records, result] : records));
      void queryClient.invalidateQueries({ queryKey: themeKeys.all });
      then.onSuccess?.(result);
    },
  });
}
