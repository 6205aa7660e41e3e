/**
 * The unsubscribe link's pages (operations/unsubscribe.ts): a GET shows what the link
 * stops and a button (link scanners that follow links unsubscribe nobody); the button and
 * mail clients' one-click POST unsubscribe. Rendered by React, so every name is escaped;
 * no script, no remote content, nothing cached, no referrer (the token is in the URL).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import type { UnsubscribeAnswer } from '../operations/unsubscribe';

export const UNSUBSCRIBE_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

const STYLE = `
body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; margin: 0; padding: 24px 16px; background: #f4f5f7; color: #1f2328; }
main { max-width: 32rem; margin: 0 auto; background: #fff; border-radius: 8px; padding: 24px; }
h1 { font-size: 1.375rem; margin: 0 0 12px; }
p { line-height: 1.5; }
button { font: inherit; font-weight: 600; padding: 10px 18px; border-radius: 6px; border: 0; background: #0b5cad; color: #fff; cursor: pointer; min-height: 44px; }
button:focus-visible { outline: 3px solid #1f2328; outline-offset: 2px; }
a { color: #0b5cad; }
@media (prefers-color-scheme: dark) {
  body { background: #0d1117; color: #e6edf3; }
  main { background: #161b22; }
  a { color: #79b8ff; }
  button { background: #58a6ff; color: #0d1117; }
  button:focus-visible { outline-color: #e6edf3; }
}`;

function Page({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

/** The page for an answer; `token` for the GET page's form, `consoleUrl` for the way back. */
export function unsubscribePage(answer: UnsubscribeAnswer, options: { token: string; consoleUrl?: string }): string {
  const settings = options.consoleUrl ? (
    <p>
      You can change what you get, and subscribe again, on your <a href={`${options.consoleUrl}/notifications`}>notification settings</a> in the console.
    </p>
  ) : null;
  let page: React.ReactElement;
  switch (answer.status) {
    case 'valid':
      page = (
        <Page title="Unsubscribe?">
          <p>This stops {answer.stops}. Nothing changes until you press the button.</p>
          <form method="post" action={`?token=${encodeURIComponent(options.token)}`}>
            <button type="submit">Unsubscribe from {answer.stops}</button>
          </form>
          {settings}
        </Page>
      );
      break;
    case 'done':
      page = (
        <Page title="You are unsubscribed">
          <p>You will get no more of {answer.stops}.</p>
          {settings}
        </Page>
      );
      break;
    case 'invalid':
      page = (
        <Page title="This unsubscribe link is not valid">
          <p>
            The link was changed, cut short, or is not one of ours, so nothing was changed. Use the link in the mail itself, or change your notifications in the
            console.
          </p>
        </Page>
      );
      break;
    case 'gone':
      page = (
        <Page title="Nothing to unsubscribe">
          <p>This link belongs to someone who is no longer a member of that account, so nothing was changed; they get no more mail from it.</p>
        </Page>
      );
      break;
  }
  return `<!doctype html>${renderToStaticMarkup(page)}`;
}
