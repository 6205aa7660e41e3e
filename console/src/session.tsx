/**
 * Who is signed in: a person (OpenID Connect, oidc.ts) or an API key. The credential lives in
 * memory and this tab's sessionStorage only (never in a URL, a log or localStorage), so it is
 * gone when the tab closes. What the console shows (name, role, admin pages) comes from
 * `members/me`; the API enforces the level. A credential the API refuses (unauthorized,
 * e.g. a revoked key or a removed member) signs the console out with the API's message,
 * except a person who is not a member yet (`not-a-member`): they may be accepting an invitation.
 */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError, createClient, type ApiKeyInfo, type FeedbackClient, type Me } from '@feedback-service/client';
import { endSessionUrl, finishSignIn, isSignInCallback, loadConfig, refreshTokens, type ConsoleConfig, type OidcConfig, type PersonTokens } from './oidc';
import { readableNamesFetch } from './lib/readable-names';

export type KeyLevel = ApiKeyInfo['level'];

const CREDENTIAL_ITEM = 'feedback-console.credential';
/** The least wait before a timed renewal (a provider's zero-lifetime tokens must not make a loop). */
const MIN_RENEWAL_DELAY_MS = 1000;

/** The API is served on the console's own origin (locally and through CloudFront). */
export const API_BASE_URL = `${window.location.origin}/v0`;

export type Credential = { kind: 'key'; key: string } | { kind: 'person'; tokens: PersonTokens };

export interface Session {
  client: FeedbackClient;
  credential: Credential['kind'];
  /** members/me; undefined while loading or when the person is not a member (`notAMember`). */
  me?: Me;
  notAMember: boolean;
  level: KeyLevel;
  isAdmin: boolean;
  /** The signed-in person's name or email, or the key's label. */
  displayName: string;
  /** Owner, Admin or Viewer. */
  roleLabel: string;
  signOut(message?: string): void;
  /** Reads members/me again (after joining an account). */
  refreshMe(): Promise<unknown>;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in session');
  return session;
}

function readStored(): Credential | undefined {
  try {
    const text = sessionStorage.getItem(CREDENTIAL_ITEM);
    const stored = text ? (JSON.parse(text) as Credential) : undefined;
    if (stored?.kind === 'key' && typeof stored.key === 'string') return stored;
    // Tokens stored by an earlier console version have no renewAt: renewed at once.
    if (stored?.kind === 'person' && typeof stored.tokens?.idToken === 'string')
      return { kind: 'person', tokens: { ...stored.tokens, renewAt: stored.tokens.renewAt ?? 0 } };
  } catch {
    // storage unavailable or damaged: not signed in
  }
  return undefined;
}

function store(credential: Credential | undefined): void {
  try {
    if (credential) sessionStorage.setItem(CREDENTIAL_ITEM, JSON.stringify(credential));
    else sessionStorage.removeItem(CREDENTIAL_ITEM);
  } catch {
    // the session then lasts until reload
  }
}

/** Checks a key with members/me (read-only: signing in writes nothing) and answers its level. */
export async function checkKey(key: string): Promise<KeyLevel> {
  const me = await createClient({ baseUrl: API_BASE_URL, apiKey: key, fetch: readableNamesFetch }).members.me();
  return me.level;
}

function shouldRetry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 2;
}

export const isNotAMember = (error: unknown) => error instanceof ApiError && error.error === 'unauthorized' && error.data?.reason === 'not-a-member';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface SignInControls {
  config: ConsoleConfig;
  /** Signs in with a key already checked by checkKey. */
  withKey(key: string): void;
  message?: string;
}

/** Holds the session, its query cache, and shows `signIn` while there is none. */
export function SessionProvider(props: { children: ReactNode; signIn: (controls: SignInControls) => ReactNode; loading: ReactNode }) {
  const [config, setConfig] = useState<ConsoleConfig | undefined>();
  const [credential, setCredential] = useState<Credential | undefined>(() => (isSignInCallback() ? undefined : readStored()));
  const [message, setMessage] = useState<string | undefined>();
  const [finishing, setFinishing] = useState(isSignInCallback);
  const signOutRef = useRef<(message?: string) => void>(() => undefined);
  const tokensRef = useRef<PersonTokens | undefined>(credential?.kind === 'person' ? credential.tokens : undefined);
  const renewing = useRef<Promise<PersonTokens | undefined> | undefined>(undefined);

  const queryClient = useMemo(() => {
    const onError = (error: unknown) => {
      if (error instanceof ApiError && error.error === 'unauthorized' && !isNotAMember(error)) signOutRef.current(error.message);
    };
    return new QueryClient({
      queryCache: new QueryCache({ onError }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: { queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false } },
    });
  }, []);

  useEffect(() => {
    let active = true;
    void loadConfig().then(async (loaded) => {
      if (!active) return;
      setConfig(loaded);
      if (!finishing) return;
      try {
        if (!loaded.oidc) throw new Error('Sign-in is not configured');
        const tokens = await finishSignIn(loaded.oidc);
        tokensRef.current = tokens;
        const next: Credential = { kind: 'person', tokens };
        store(next);
        setCredential(next);
      } catch (error) {
        setMessage((error as Error).message);
      } finally {
        setFinishing(false);
      }
    });
    return () => {
      active = false;
    };
  }, [finishing]);

  /** Renews the tokens once at a time (and so sets the next timed renewal); a failure signs out. */
  const renew = useCallback((oidc: OidcConfig) => {
    renewing.current ??= (async () => {
      const current = tokensRef.current;
      if (!current) return undefined;
      try {
        const tokens = await refreshTokens(oidc, current);
        // Signed out meanwhile: the new tokens are dropped.
        if (tokensRef.current !== current) return undefined;
        tokensRef.current = tokens;
        const next: Credential = { kind: 'person', tokens };
        store(next);
        setCredential(next);
        return tokens;
      } catch {
        if (tokensRef.current === current) signOutRef.current('Your session has ended: sign in again.');
        return undefined;
      } finally {
        renewing.current = undefined;
      }
    })();
    return renewing.current;
  }, []);

  // Silent renewal shortly before the ID token expires, also while the tab is idle: each
  // renewal sets the next (renewAt differs for every token received).
  const renewAt = credential?.kind === 'person' ? credential.tokens.renewAt : undefined;
  useEffect(() => {
    const oidc = config?.oidc;
    if (!oidc || renewAt === undefined) return;
    const timer = window.setTimeout(() => void renew(oidc), Math.max(MIN_RENEWAL_DELAY_MS, renewAt - Date.now()));
    return () => window.clearTimeout(timer);
  }, [config, renewAt, renew]);

  const signOut = useCallback(
    (reason?: string) => {
      const tokens = tokensRef.current;
      tokensRef.current = undefined;
      store(undefined);
      queryClient.clear();
      setCredential(undefined);
      setMessage(reason);
      // Signing out on purpose also ends the session at the provider (when it offers that).
      const oidc = config?.oidc;
      if (reason === undefined && tokens && oidc) {
        void endSessionUrl(oidc).then((url) => {
          if (url) window.location.assign(url);
        });
      }
    },
    [queryClient, config],
  );
  signOutRef.current = signOut;

  const withKey = useCallback((key: string) => {
    const next: Credential = { kind: 'key', key };
    store(next);
    setMessage(undefined);
    setCredential(next);
  }, []);

  const kind = credential?.kind;
  const apiKey = credential?.kind === 'key' ? credential.key : undefined;
  const client = useMemo(() => {
    if (!kind) return undefined;
    if (kind === 'key') return createClient({ baseUrl: API_BASE_URL, apiKey, fetch: readableNamesFetch });
    return createClient({
      baseUrl: API_BASE_URL,
      fetch: readableNamesFetch,
      token: async () => {
        const tokens = tokensRef.current;
        const oidc = config?.oidc;
        if (tokens && oidc && tokens.refreshToken && tokens.renewAt <= Date.now()) {
          return (await renew(oidc))?.idToken;
        }
        return tokens?.idToken;
      },
    });
  }, [kind, apiKey, config, renew]);

  return (
    <QueryClientProvider client={queryClient}>
      {!config || finishing ? (
        props.loading
      ) : client && credential ? (
        <SignedIn client={client} credential={credential.kind} signOut={signOut}>
          {props.children}
        </SignedIn>
      ) : (
        props.signIn({ config, withKey, message })
      )}
    </QueryClientProvider>
  );
}

function SignedIn(props: { client: FeedbackClient; credential: Credential['kind']; signOut: (message?: string) => void; children: ReactNode }) {
  const me = useQuery({ queryKey: ['members/me'], queryFn: () => props.client.members.me(), staleTime: 60_000 });
  const notAMember = isNotAMember(me.error);
  const session = useMemo<Session | undefined>(() => {
    if (!me.data && !notAMember) return undefined;
    const data = me.data;
    const level: KeyLevel = data?.level ?? 'viewer';
    const displayName = data?.person ? (data.person.name ?? data.person.email ?? 'Signed in') : data?.key ? (data.key.label ?? 'API key') : 'Signed in';
    return {
      client: props.client,
      credential: props.credential,
      me: data,
      notAMember,
      level,
      isAdmin: level === 'admin',
      displayName,
      roleLabel: capitalized(data?.role ?? level),
      signOut: props.signOut,
      refreshMe: () => me.refetch(),
    };
  }, [me.data, notAMember, props.client, props.credential, props.signOut, me.refetch]);
  if (!session) {
    if (me.error && !notAMember) {
      return (
        <main id="main" className="sign-in">
          <p role="alert">{(me.error as Error).message}</p>
          <button type="button" onClick={() => props.signOut()}>
            Sign out
          </button>
        </main>
      );
    }
    return (
      <p className="loading" role="status">
        Signing in…
      </p>
    );
  }
  return <SessionContext.Provider value={session}>{props.children}</SessionContext.Provider>;
}
