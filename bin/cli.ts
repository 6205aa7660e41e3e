/**
 * What the command-line tools (keys, aggregates:rebuild, export, responses:index-users)
 * share: exit codes, usage and one-line errors without stack traces, and messages that
 * say which table they talk to.
 *
 * Exit codes: 0 done, 1 failed, 2 wrong usage.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { StoreSettings } from '../functions/store/dynamodb-clients';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** Wrong usage (unknown option, missing value, ...): exit code 2. */
export class UsageError extends Error {}

/**
 * parseArgs' refusal as one line a person can act on. Ids are base64url and may begin with
 * "-", which parseArgs takes for an option ("argument is ambiguous"): the line says to
 * write `--option=<value>` then.
 */
function usageErrorOf(error: unknown): UsageError {
  const message = (error as Error).message.split('\n')[0];
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return new UsageError(`Unknown option ${unknown[1]}`);
  const ambiguous = /^Option '(--[a-z-]+)[^']*' argument is ambiguous/.exec(message);
  return new UsageError(ambiguous ? `${message} Write ${ambiguous[1]}=<value> when the value begins with "-"` : message);
}
/** parseArgs, strict, with its refusal as a UsageError (`usageErrorOf`). */
export function parseCommandLine<T extends ParseArgsConfig>(config: T) {
  try {
    return parseArgs({ strict: true, ...config });
  } catch (error) {
    throw usageErrorOf(error);
  }
}

/**
 * The request a tool's `parse` makes of its arguments, or the exit code when there is
 * nothing to run: 0 after printing the usage (`parse` returned 'help'), 2 after one line
 * on wrong usage.
 */
export function requestOrExitCode<R extends object>(name: string, usage: string, argv: string[], parse: (argv: string[]) => R | 'help'): R | number {
  let request: R | 'help';
  try {
    request = parse(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${name}: ${error.message} (see --help)\n`);
      return 2;
    }
    throw error;
  }
  if (request === 'help') {
    print(usage);
    return 0;
  }
  return request;
}

/** A request that cannot be done (unknown id, conflicts, ...): exit code 1. */
export class Failure extends Error {}

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function where(settings: StoreSettings): string {
  return settings.endpoint
    ? `table "${settings.tableName}" at ${settings.endpoint}`
    : `table "${settings.tableName}" on AWS (${settings.region ? `region ${settings.region}` : 'default region'})`;
}

/** One line saying what went wrong and what to do, for the errors users meet (no table, no network, no credentials). */
export function describeError(error: unknown, settings: StoreSettings): string {
  const chain: Array<Error & { code?: string; errors?: unknown[] }> = [];
  for (let current = error as (Error & { cause?: unknown }) | undefined; current && chain.length < 8; ) {
    chain.push(current);
    current = current.cause as typeof current;
  }
  const any = (test: (error: Error & { code?: string; errors?: unknown[] }) => boolean) => chain.some(test);
  const named = (...names: string[]) => any((e) => names.includes(e.name));
  const codes = (e: { code?: string; errors?: unknown[] }): string[] => [
    ...(e.code ? [e.code] : []),
    ...(Array.isArray(e.errors) ? e.errors.flatMap((inner) => codes(inner as { code?: string })) : []),
  ];
  const networkCode = chain.flatMap(codes).find((code) => /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH)$/.test(code));
  const root = chain[chain.length - 1];
  const message = (root?.message || String(error)).replace(/\s+/g, ' ').trim();

  if (named('ResourceNotFoundException')) {
    return settings.endpoint
      ? `No ${where(settings)}: start the API with "npm start" (it creates the table) or set TABLE_NAME`
      : `No ${where(settings)}: set TABLE_NAME to the table of the deployed stack (and AWS_REGION/AWS_PROFILE to its account)`;
  }
  if (networkCode) {
    return settings.endpoint
      ? `Cannot reach DynamoDB at ${settings.endpoint} (${networkCode}): is "npm start" running, or is DYNAMODB_ENDPOINT wrong?`
      : `Cannot reach DynamoDB on AWS (${networkCode}): check the network and AWS_REGION`;
  }
  if (named('CredentialsProviderError')) {
    return 'No AWS credentials found: set DYNAMODB_ENDPOINT for a local DynamoDB (e.g. http://localhost:8000 for npm start), or configure AWS credentials (AWS_PROFILE, ...)';
  }
  if (/region is missing/i.test(message)) {
    return 'No AWS region configured: set AWS_REGION (or a profile with a region), or DYNAMODB_ENDPOINT for a local DynamoDB';
  }
  if (named('UnrecognizedClientException', 'InvalidSignatureException', 'ExpiredTokenException', 'AccessDeniedException')) {
    return `AWS refused the request for ${where(settings)}: ${message}`;
  }
  return message;
}

/**
 * Runs a tool's main and turns its outcome into an exit code; `name` prefixes error lines.
 * Output piped into a command that stops reading early (e.g. `| head`) is not an error.
 */
export function runCli(name: string, main: (argv: string[]) => Promise<number>): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`${name}: ${(error as Error)?.message ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
