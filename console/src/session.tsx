/**
 * The signed-in key. It lives in sessionStorage only (never in a URL, a log or
 * localStorage), so it is gone when the tab closes. A key the API refuses (unauthorized,
 * e.g. revoked meanwhile) signs the console out with the API's message.
 */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError, createClient, type ApiKeyInfo, type FeedbackClient } from '@feedback-service/client';

export type KeyLevel = ApiKeyInfo['level'];

const KEY_ITEM = 'feedback-console.key';
const LEVEL_ITEM = 'feedback-console.level';

/** The API is served on the console's own origin (locally and through CloudFront). */
export const API_BASE_URL = `${window.location.origin}/v0`;

export interface Session {
  client: FeedbackClient;
  level: KeyLevel;
  isAdmin: boolean;
  signOut(message?: string): void;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in session');
  return session;
}

function readStored(): { key: string; level: KeyLevel } | undefined {
  try {
    const key = sessionStorage.getItem(KEY_ITEM);
    const level = sessionStorage.getItem(LEVEL_ITEM);
    return key && (level === 'admin' || level === 'viewer') ? { key, level } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a key and finds its level through the public API: a viewer-level read proves the
 * key, and the admin-level read `keys/list` tells the level (a viewer is refused with
 * `forbidden`). Both are read-only, so signing in writes nothing, not even an audit entry
 * (a refused change would be one). The level only chooses which controls are shown: the
 * API enforces it.
 */
export async function checkKey(key: string): Promise<KeyLevel> {
  const client = createClient({ baseUrl: API_BASE_URL, apiKey: key });
  await client.projects.lookup('', { state: 'all' });
  try {
    await client.keys.list({ $size: 1 });
    return 'admin';
  } catch (error) {
    if (error instanceof ApiError && error.error === 'forbidden') return 'viewer';
    throw error;
  }
}

function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 2;
}

/** Holds the session, its query cache, and shows `signIn` while there is none. */
export function SessionProvider(props: { children: ReactNode; signIn: (done: (key: string, level: KeyLevel) => void, message?: string) => ReactNode }) {
  const [stored, setStored] = useState(readStored);
  const [message, setMessage] = useState<string | undefined>();
  const signOutRef = useRef<(message?: string) => void>(() => undefined);

  const queryClient = useMemo(() => {
    const onError = (error: unknown) => {
      if (error instanceof ApiError && error.error === 'unauthorized') signOutRef.current(error.message);
    };
    return new QueryClient({
      queryCache: new QueryCache({ onError }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: { queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false } },
    });
  }, []);

  const signOut = useCallback(
    (reason?: string) => {
      try {
        sessionStorage.removeItem(KEY_ITEM);
        sessionStorage.removeItem(LEVEL_ITEM);
      } catch {
        // storage unavailable: nothing was kept
      }
      queryClient.clear();
      setStored(undefined);
      setMessage(reason);
    },
    [queryClient],
  );
  signOutRef.current = signOut;

  const signIn = useCallback((key: string, level: KeyLevel) => {
    try {
      sessionStorage.setItem(KEY_ITEM, key);
      sessionStorage.setItem(LEVEL_ITEM, level);
    } catch {
      // the session then lasts until reload
    }
    setMessage(undefined);
    setStored({ key, level });
  }, []);

  const session = useMemo<Session | undefined>(
    () =>
      stored && {
        client: createClient({ baseUrl: API_BASE_URL, apiKey: stored.key }),
        level: stored.level,
        isAdmin: stored.level === 'admin',
        signOut,
      },
    [stored, signOut],
  );

  return (
    <QueryClientProvider client={queryClient}>
      {session ? <SessionContext.Provider value={session}>{props.children}</SessionContext.Provider> : props.signIn(signIn, message)}
    </QueryClientProvider>
  );
}
