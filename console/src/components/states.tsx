import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ApiError } from '@feedback-service/client';

export function Loading(props: { what?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      Loading{props.what ? ` ${props.what}` : ''}…
    </p>
  );
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/**
 * A bad request's messages by field, to show at the field they are about: `data.fields`
 * paths name the argument and the field (`args.0.email` -> `email`).
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const fields = error instanceof ApiError && error.error === 'bad-request' ? error.data?.fields : undefined;
  if (!Array.isArray(fields)) return {};
  const messages: Record<string, string> = {};
  for (const field of fields as { path?: unknown; message?: unknown }[]) {
    const name = typeof field.path === 'string' ? /^args\.\d+\.([^.]+)/.exec(field.path)?.[1] : undefined;
    if (name && typeof field.message === 'string') messages[name] ??= field.message;
  }
  return messages;
}

/** A refused change in one line, beside what asked for it; nothing without an error. */
export function ChangeError(props: { error: unknown }) {
  if (!props.error) return null;
  return (
    <p className="error" role="alert">
      {errorMessage(props.error)}
    </p>
  );
}

/**
 * An error as the API worded it. `retry` asks again for what failed to load, with a Retry
 * button; it is required so that no load error leaves the reader only a reload. A failed
 * change passes `null`: the button or form that made it is still there to try again.
 */
export function ErrorMessage(props: { error: unknown; retry: (() => void) | null }) {
  const notFound = props.error instanceof ApiError && props.error.error === 'not-found';
  return (
    <div className="error" role="alert">
      <p>
        <strong>{notFound ? 'Not found.' : props.retry ? 'Could not load this.' : 'That did not work.'}</strong> {errorMessage(props.error)}
      </p>
      {props.retry && (
        <button type="button" onClick={props.retry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** An empty list or page: what is missing, and how to get some. */
export function Empty(props: { title: string; children: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{props.title}</p>
      <p>{props.children}</p>
    </div>
  );
}

/** "No feedback yet", with how to start collecting some. */
export function NoFeedback(props: { embedHref?: string; what?: string }) {
  return (
    <Empty title="No feedback yet">
      {props.what ?? 'Responses show here as soon as visitors answer a widget.'}{' '}
      {props.embedHref ? (
        <>
          <Link href={props.embedHref}>Embed a widget</Link> on your pages to start collecting them.
        </>
      ) : (
        'Open a content set and follow “Embed” to put a widget on your pages.'
      )}
    </Empty>
  );
}

/** The server answers 404 `No operation at ...` for an operation it does not offer (an older version). */
export function isMissingOperation(error: unknown): boolean {
  return error instanceof ApiError && error.error === 'not-found' && /^No operation at /.test(error.message);
}

/** An error, worded for an operation this server does not have yet. */
export function OperationError(props: { error: unknown; feature: string; retry: (() => void) | null }) {
  if (isMissingOperation(props.error)) {
    return (
      <div className="error" role="alert">
        <p>
          <strong>Not available on this server.</strong> {props.feature} needs a newer version of the feedback service ({errorMessage(props.error)}).
        </p>
      </div>
    );
  }
  return <ErrorMessage error={props.error} retry={props.retry} />;
}
