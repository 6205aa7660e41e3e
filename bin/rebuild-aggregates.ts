/**
 * `npm run aggregates:rebuild -- --project <id>`: recomputes a project's aggregate
 * counters from its responses and rewrites those that differ, on the same table as
 * `npm start` (DynamoDB Local) or a deployed stack (AWS); also migrates a project's counters
 * from the layout before issue 19. Run with --help for usage; functions/jobs/rebuild.ts has
 * the design.
 *
 * Exit codes: 0 done, 1 failed (unknown project, conflicts, store unreachable, ...),
 * 2 wrong usage. Errors are one line on stderr, never a stack trace.
 */
import { defaultStore } from '../functions/store/entity-store';
import type { StoreSettings } from '../functions/store/dynamodb-clients';
import { describeError, Failure, print, requestOrExitCode, runCli, UsageError, parseCommandLine, where } from './cli';
import { DEFAULT_TABLE_NAME } from '../functions/store/table';
import { deleteCountedMarkers, rebuildProject, type RebuildResult } from '../functions/jobs/rebuild';

const USAGE = `Usage: npm run aggregates:rebuild -- --project <id> [--dry-run] [--json] [--markers]

Recomputes every aggregate counter of a project (its own, its content sets', its content
items') from its responses, exactly as the stream consumer would have, and rewrites the
counter items that differ. Items that no active response counts in any more are set to
zero. Counters that are already right are not written. Counter items of the layout before
(hour#, day#, week#, month#, year#, lifetime, rolling# items) are deleted: this is how a
deployed stack's counters move to the day/year layout.

Run it when the project is quiet: no responses being written and the stream consumer
caught up. It OVERWRITES counters, so a response written or not yet counted while it runs
can end up missing or counted twice (run it again once quiet to fix that).

Options:
  --project <id>        The project to rebuild (required)
  --dry-run             Compute and compare, write nothing; shows what would be rewritten
  --json                Machine-readable JSON on stdout (with npm, use "npm run -s
                        aggregates:rebuild" so npm's banner stays out of it)
  --markers             Also delete the counted#<event> markers of the layout before, in
                        the whole table (one Scan; their TTL removes them within 3 days)
  -h, --help            Shows this help

Environment (the same settings as npm start and npm run keys):
  DYNAMODB_ENDPOINT     DynamoDB to use, e.g. http://localhost:8000 for the DynamoDB Local of
                        npm start. Unset: DynamoDB on AWS, with the default credential chain
                        and region (AWS_PROFILE, AWS_REGION, ...)
  TABLE_NAME            Table name (default: ${DEFAULT_TABLE_NAME}); for a deployed stack, its table output

Exit codes: 0 done, 1 failed (e.g. unknown project, or counters changed while rebuilding),
2 wrong usage.

Examples:
  DYNAMODB_ENDPOINT=http://localhost:8000 npm run aggregates:rebuild -- --project <id> --dry-run
  AWS_PROFILE=prod TABLE_NAME=<stack table> npm run -s aggregates:rebuild -- --project <id> --json
`;

/** Lines of rewritten items shown in text mode; --json shows them all. */
const TEXT_LIMIT = 200;

function parse(argv: string[]) {
  const parsed = parseCommandLine({
    args: argv,
    allowPositionals: false,
    options: {
      project: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      markers: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values } = parsed;
  if (values.help) return 'help';
  const projectId = values.project?.trim();
  if (!projectId) throw new UsageError('--project <id> is required');
  return { projectId, dryRun: values['dry-run'], json: values.json, markers: values.markers };
}

function report(result: RebuildResult, settings: StoreSettings): string {
  const verb = result.dryRun ? 'Would rewrite' : 'Rewrote';
  const lines = [
    `Project     ${result.projectId} in ${where(settings)}`,
    `Responses   ${result.responses.total} (${result.responses.active} active)`,
    `Entities    ${result.entities} (the project, and its sets and items that have responses)`,
    `Items       ${result.items.recomputed} recomputed, ${result.items.existing} stored before, ${result.items.unchanged} already right`,
    `${verb.padEnd(11)} ${result.items.rewritten} item(s)${result.dryRun ? ' (dry run: nothing written)' : ''}`,
    `${(result.dryRun ? 'Would delete' : 'Deleted').padEnd(11)} ${result.items.deleted} item(s) of the counter layout before`,
  ];
  if (result.rewritten.length > 0) {
    lines.push('', `  ${'pk'.padEnd(40)}  ${'sk'.padEnd(24)}  count before -> after`);
    for (const item of result.rewritten.slice(0, TEXT_LIMIT)) {
      const before = item.countBefore === null ? '(none)' : String(item.countBefore);
      lines.push(
        `  ${item.pk.padEnd(40)}  ${item.sk.padEnd(24)}  ${before} -> ${item.countAfter}${item.action === 'zeroed' ? ' (no active response left)' : ''}`,
      );
    }
    if (result.rewritten.length > TEXT_LIMIT) lines.push(`  ... and ${result.rewritten.length - TEXT_LIMIT} more (--json lists them all)`);
  }
  if (result.conflicts.length > 0) {
    lines.push('', `${result.conflicts.length} item(s) changed while rebuilding and were NOT rewritten: the project is not quiet. Run again when it is:`);
    for (const conflict of result.conflicts.slice(0, TEXT_LIMIT)) lines.push(`  ${conflict.pk}  ${conflict.sk}`);
  }
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const request = requestOrExitCode('aggregates:rebuild', USAGE, argv, parse);
  if (typeof request === 'number') return request;
  const { store, client, settings } = defaultStore();
  try {
    const { data: project } = await store.entities.Project.get({ id: request.projectId }).go({ consistent: true });
    if (!project) throw new Failure(`No project with id "${request.projectId}" in ${where(settings)}`);
    const result = await rebuildProject(store, project.id, new Date(), { dryRun: request.dryRun });
    const markers = request.markers && !request.dryRun ? await deleteCountedMarkers(store) : undefined;
    print(
      request.json
        ? JSON.stringify(markers === undefined ? result : { ...result, markersDeleted: markers }, null, 2)
        : `${report(result, settings)}${markers === undefined ? '' : `\nMarkers     ${markers} counted# marker(s) deleted`}`,
    );
    return result.conflicts.length > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`aggregates:rebuild: ${error instanceof Failure ? error.message : describeError(error, settings)}\n`);
    return 1;
  } finally {
    client.destroy();
  }
}

runCli('aggregates:rebuild', main);
