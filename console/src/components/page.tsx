import { useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ErrorMessage, Loading } from './states';

export interface Crumb {
  label: string;
  href: string;
}

/** A page: breadcrumbs, its one h1 (also the document title), actions, content. */
export function Page(props: { title: string; kicker?: string; crumbs?: Crumb[]; actions?: ReactNode; children: ReactNode; subtitle?: ReactNode }) {
  useEffect(() => {
    document.title = `${props.title} · Feedback console`;
  }, [props.title]);
  return (
    <>
      {props.crumbs && props.crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" className="crumbs">
          <ol>
            {props.crumbs.map((crumb) => (
              <li key={crumb.href}>
                <Link href={crumb.href}>{crumb.label}</Link>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <header className="page-header">
        <div>
          {props.kicker && <p className="kicker">{props.kicker}</p>}
          <h1>{props.title}</h1>
          {props.subtitle && <div className="subtitle">{props.subtitle}</div>}
        </div>
        {props.actions && <div className="actions">{props.actions}</div>}
      </header>
      {props.children}
    </>
  );
}

/** A page still loading or failed, with a heading all the same (never a blank page). */
export function PageState(props: { title: string; children: ReactNode; crumbs?: Crumb[] }) {
  return (
    <Page title={props.title} crumbs={props.crumbs}>
      {props.children}
    </Page>
  );
}

/**
 * The page of what one query loads, until it has loaded: a loading line, or the query's
 * error with a retry. Pages return it while `query.error || !query.data`.
 */
export function QueryPageState(props: { title: string; crumbs?: Crumb[]; what: string; query: { error: unknown; refetch: () => unknown } }) {
  return (
    <PageState title={props.title} crumbs={props.crumbs}>
      {props.query.error ? <ErrorMessage error={props.query.error} retry={() => void props.query.refetch()} /> : <Loading what={props.what} />}
    </PageState>
  );
}

export function Section(props: { title: string; children: ReactNode; actions?: ReactNode; id?: string }) {
  const id = props.id ?? `section-${props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="section" aria-labelledby={id}>
      <div className="section-header">
        <h2 id={id}>{props.title}</h2>
        {props.actions && <div className="actions">{props.actions}</div>}
      </div>
      {props.children}
    </section>
  );
}
