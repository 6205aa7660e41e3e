import type { z } from 'zod';
import type { Store } from '../store/entities';
import type { Caller, Level } from './auth';
import type { ErrorCode } from './errors';

export const RESOURCES = ['projects', 'sets', 'contents', 'responses', 'webhooks'] as const;
export type Resource = (typeof RESOURCES)[number];

/** Path aliases kept for the published widgets, which call responses "feelbacks". */
export const RESOURCE_ALIASES: Partial<Record<Resource, string>> = { responses: 'feelbacks' };

export interface RequestInfo {
  requestId: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  sourceIp?: string;
}

export interface OperationContext {
  caller: Caller;
  store: Store;
  now: Date;
  request: RequestInfo;
}

type ArgumentsSchema = z.ZodType<unknown[], unknown>;

/**
 * What an operation is, without how it runs: the registry, the docs, the CDK stack and the
 * local server's routes read declarations only, so `cdk synth` loads no runtime code
 * (middy, Powertools, ElectroDB). The implementation lives in the operation's handler
 * module (`functions/handlers/<resource>/<name>.ts`).
 */
export interface OperationDeclaration<Args extends ArgumentsSchema = ArgumentsSchema> {
  resource: Resource;
  name: string;
  summary: string;
  /** The JSON array of arguments, as a zod tuple. */
  args: Args;
  /** How the arguments read in the docs, e.g. `id: string, filters?: ProjectFilters`. */
  signature: string;
  /** The result type in the docs; `void` answers 204 with no body. */
  result: string;
  level: Level;
  /** Read-only operations are also served on GET with `?$p=<JSON array>`, and get read-only table access. */
  readOnly: boolean;
  /** Error codes this operation can answer with besides the ones every operation has. */
  errors: ErrorCode[];
  /** Timeout of its Lambda function in seconds (default 10; API Gateway answers 504 after 29). */
  timeoutSeconds?: number;
}

export type OperationHandler<Args extends ArgumentsSchema = ArgumentsSchema> = (args: z.output<Args>, context: OperationContext) => Promise<unknown>;

/** A declared operation with its implementation: what the adapter runs. */
export interface OperationDefinition<Args extends ArgumentsSchema = ArgumentsSchema> extends OperationDeclaration<Args> {
  handler: OperationHandler<Args>;
}

export function declareOperation<Args extends ArgumentsSchema>(declaration: OperationDeclaration<Args>): OperationDeclaration<Args> {
  return declaration;
}

/** The declaration with its handler; the handler's arguments are typed by the declaration's schema. */
export function implement<Args extends ArgumentsSchema>(declaration: OperationDeclaration<Args>, handler: OperationHandler<Args>): OperationDefinition<Args> {
  return { ...declaration, handler };
}

export function operationPath(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string {
  return `${operation.resource}/${operation.name}`;
}
