import * as path from 'node:path';

/** The repository root: function entries, the lock file and esbuild are resolved from here. */
export const REPO_ROOT = path.resolve(__dirname, '..');

/** Absolute path of a file given relative to the repository root. */
export function repoPath(relativePath: string): string {
  return path.join(REPO_ROOT, relativePath);
}

/** Entry of the ranker, run every minute: the top lists (exports `handler`). */
export const RANKER_ENTRY = 'functions/jobs/ranker-handler.ts';

/** Entry of the alerts job, run every hour (exports `handler`). */
export const ALERTS_ENTRY = 'functions/jobs/alerts-handler.ts';

/** Entry of the themes job, run every minute (exports `handler`). */
export const THEMES_ENTRY = 'functions/jobs/themes-handler.ts';

/** Entry of the weekly digest job, run on Monday at 08:00 UTC (exports `handler`). */
export const DIGEST_ENTRY = 'functions/jobs/digest-handler.ts';

/** Entry of the function serving /openapi.json and the /docs reference page (exports `handler`). */
export const DOCS_ENTRY = 'functions/reference-page/handler.ts';

/** Entry of the webhook sweeper, started every minute (exports `handler`). */
export const WEBHOOK_SWEEPER_ENTRY = 'functions/jobs/webhook-sweeper-handler.ts';

/** Entry of the mails' unsubscribe link, GET/POST /v0/mail/unsubscribe (exports `handler`). */
export const UNSUBSCRIBE_ENTRY = 'functions/unsubscribe/handler.ts';

/** Entry of the function SES's bounce and complaint events reach through SNS (exports `handler`). */
export const MAIL_BOUNCES_ENTRY = 'functions/mail/bounces-handler.ts';
