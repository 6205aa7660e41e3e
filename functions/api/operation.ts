import type { z } from 'zod';
import type { Store } from '../store/entities';
import type { Caller, Level } from './auth';
import type { ErrorCode } from './errors';

export const RESOURCES = ['projects', 'sets', 'contents', 'responses'] as const;
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

/** An operation of the API, declared once; routes, functions, the local server and docs derive from it. */
export interface OperationDefinition<Args extends z.ZodType<unknown[], unknown> = z.ZodType<unknown[], unknown>> {
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
  handler(args: z.output<Args>, context: OperationContext): Promise<unknown>;
}

export function defineOperation<Args extends z.ZodType<unknown[], unknown>>(
  definition: OperationDefinition<Args>,
): OperationDefinition<Args> {
  return definition;
}

export function operationPath(operation: Pick<OperationDefinition, 'resource' | 'name'>): string {
  return `${operation.resource}/${operation.name}`;
}
