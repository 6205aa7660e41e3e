/**
 * `npm run digest -- --project <id> [--mail]`: sends a project's weekly digest (its last
 * complete week) now, as the `digest.weekly` event, to the webhooks that ask for it, and
 * with `--mail` by mail to the members who follow the project with the digest on, whether
 * or not the week's digest went out already; functions/jobs/digest.ts has the design.
 *
 * Exit codes: 0 sent, 1 failed (unknown project, store unreachable, ...), 2 wrong usage.
 */
import { sendProjectDigest } from '../functions/jobs/digest';
import { withMail } from '../functions/mail/mails';
import { mailConfiguration } from '../functions/mail/settings';
import { defaultStore } from '../functions/store/entity-store';
import { DEFAULT_TABLE_NAME } from '../functions/store/table';
import { describeError, Failure, print, requestOrExitCode, runCli, UsageError, parseCommandLine, where } from './cli';

const USAGE = `Usage: npm run digest -- --project <id> [--mail]

Sends the project's digest of its last complete week (Monday to Sunday, UTC) now, as the
event digest.weekly, to the account's webhooks that ask for it (those of the account, or
of this project, subscribed to digest.weekly). The scheduled digest goes out on Mondays at
08:00 UTC; this sends one more, whenever you run it.

Options:
  --project <id>        The project (required)
  --mail                Also mail it now to the members who follow the project with the
                        weekly digest on (to their verified addresses; see README, "Mail")
  -h, --help            Shows this help

Environment (the same settings as npm start and npm run keys):
  DYNAMODB_ENDPOINT     DynamoDB to use, e.g. http://localhost:8000 for the DynamoDB Local of
                        npm start. Unset: DynamoDB on AWS, with the default credential chain
  TABLE_NAME            Table name (default: ${DEFAULT_TABLE_NAME}); for a deployed stack, its table output
  MAIL_FROM, CONSOLE_URL, SMTP_URL or MAIL_OUTBOX_DIR (or MAIL_TRANSPORT=ses), MAIL_TOKEN_KEY
                        How mail is sent (with --mail), as for npm start: README, "Mail"
`;

function parse(argv: string[]) {
  const parsed = parseCommandLine({
    args: argv,
    allowPositionals: false,
    options: { project: { type: 'string' }, mail: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (parsed.values.help) return 'help';
  const projectId = parsed.values.project?.trim();
  if (!projectId) throw new UsageError('--project <id> is required');
  return { projectId, mail: parsed.values.mail === true };
}

async function main(argv: string[]): Promise<number> {
  const request = requestOrExitCode('digest', USAGE, argv, parse);
  if (typeof request === 'number') return request;
  const { store, client, settings } = defaultStore();
  try {
    const { data: project } = await store.entities.Project.get({ id: request.projectId }).go({ consistent: true });
    if (!project) throw new Failure(`No project with id "${request.projectId}" in ${where(settings)}`);
    const configuration = mailConfiguration();
    if (request.mail && !configuration.enabled) throw new Failure(configuration.off);
    const sent = await withMail(store, (mail) =>
      sendProjectDigest(store, { accountId: project.accountId, projectId: project.id }, new Date(), false, {
        webhooks: true,
        ...(request.mail ? { mail } : {}),
      }),
    );
    print(`Digest ${sent?.id} of project ${project.id} recorded in ${where(settings)}: the webhooks consumer delivers it.`);
    if (request.mail) {
      for (const outcome of sent?.mailed ?? []) print(`  mail: ${outcome.state}${'reason' in outcome ? ` (${outcome.reason})` : ''}`);
      print(`${sent?.mailed.filter((outcome) => outcome.state === 'sent').length ?? 0} digest mails sent.`);
      if (sent?.mailed.some((outcome) => outcome.state === 'retry' || outcome.state === 'refused')) return 1;
    }
    return 0;
  } catch (error) {
    process.stderr.write(`digest: ${error instanceof Failure ? error.message : describeError(error, settings)}\n`);
    return 1;
  } finally {
    client.destroy();
  }
}

runCli('digest', main);
