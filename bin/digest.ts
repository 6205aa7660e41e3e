/**
 * `npm run digest -- --project <id>`: sends a project's weekly digest (its last complete
 * week) now, as the `digest.weekly` event, to the webhooks that ask for it, whether or not
 * the week's digest went out already; functions/jobs/digest.ts has the design.
 *
 * Exit codes: 0 sent, 1 failed (unknown project, store unreachable, ...), 2 wrong usage.
 */
import { sendProjectDigest } from '../functions/jobs/digest';
import { defaultStore } from '../functions/store/entity-store';
import { DEFAULT_TABLE_NAME } from '../functions/store/table';
import { describeError, Failure, print, requestOrExitCode, runCli, UsageError, parseCommandLine, where } from './cli';

const USAGE = `Usage: npm run digest -- --project <id>

Sends the project's digest of its last complete week (Monday to Sunday, UTC) now, as the
event digest.weekly, to the account's webhooks that ask for it (those of the account, or
of this project, subscribed to digest.weekly). The scheduled digest goes out on Mondays at
08:00 UTC; this sends one more, whenever you run it.

Options:
  --project <id>        The project (required)
  -h, --help            Shows this help

Environment (the same settings as npm start and npm run keys):
  DYNAMODB_ENDPOINT     DynamoDB to use, e.g. http://localhost:8000 for the DynamoDB Local of
                        npm start. Unset: DynamoDB on AWS, with the default credential chain
  TABLE_NAME            Table name (default: ${DEFAULT_TABLE_NAME}); for a deployed stack, its table output
`;

function parse(argv: string[]) {
  const parsed = parseCommandLine({
    args: argv,
    allowPositionals: false,
    options: { project: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (parsed.values.help) return 'help';
  const projectId = parsed.values.project?.trim();
  if (!projectId) throw new UsageError('--project <id> is required');
  return { projectId };
}

async function main(argv: string[]): Promise<number> {
  const request = requestOrExitCode('digest', USAGE, argv, parse);
  if (typeof request === 'number') return request;
  const { store, client, settings } = defaultStore();
  try {
    const { data: project } = await store.entities.Project.get({ id: request.projectId }).go({ consistent: true });
    if (!project) throw new Failure(`No project with id "${request.projectId}" in ${where(settings)}`);
    const id = await sendProjectDigest(store, { accountId: project.accountId, projectId: project.id }, new Date(), false);
    print(`Digest ${id} of project ${project.id} recorded in ${where(settings)}: the webhooks consumer delivers it.`);
    return 0;
  } catch (error) {
    process.stderr.write(`digest: ${error instanceof Failure ? error.message : describeError(error, settings)}\n`);
    return 1;
  } finally {
    client.destroy();
  }
}

runCli('digest', main);
