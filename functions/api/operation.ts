import * as z from 'zod';
import type { TableClient } from '../store/dynamodb-clients';
import type { Store } from '../store/entities';
import type { Caller, OperationLevel } from './auth';
import type { ErrorCode } from './errors';

export const RESOURCES = ['projects', 'sets', 'contents', 'responses', 'keys', 'members', 'webhooks', 'audit', 'alerts'] as const;
export type Resource = (typeof RESOURCES)[number];

/** Path aliases kept for the published widgets, which call responses "feelbacks". */
export const RESOURCE_ALIASES: Partial<Record<Resource, string>> = { responses: 'feelbacks' };

export interface RequestInfo {
  requestId: string;
  /** GET or POST. */
  method: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The caller's address: on AWS the viewer's, as the distribution saw it (functions/api/client-address.ts). */
  sourceIp?: string;
}

/**
 * What a handler gets besides its arguments. `store` is the ElectroDB store, or for
 * operations implemented with `implementOnTable` only the raw table client (their
 * bundles then carry no ElectroDB).
 */
export interface OperationContext<S extends TableClient = Store> {
  caller: Caller;
  store: S;
  now: Date;
  request: RequestInfo;
  /** Headers the operation adds to its successful answer (e.g. Cache-Control); the adapter sends them. */
  responseHeaders: Record<string, string>;
  /**
   * Ids of what the call changed besides what it named (the keys and invitations a removal
   * revokes with the member): the call's audit entry lists them after the named ids.
   */
  touched: string[];
  /** Numbers the call's audit entry records besides (responses/import: its rows per status). */
  counts: Record<string, number>;
}

type ArgumentsSchema = z.ZodType<unknown[], unknown>;
type ResultSchema = z.ZodType;

/**
 * What an operation is, without how it runs: the registry, the docs, the CDK stack and the
 * local server's routes read declarations only, so `cdk synth` loads no runtime code
 * (middy, Powertools, ElectroDB). The implementation lives in the operation's handler
 * module (`functions/handlers/<resource>/<name>.ts`).
 */
export interface OperationDeclaration<
  Args extends ArgumentsSchema = ArgumentsSchema,
  Result extends ResultSchema = ResultSchema,
  Input extends ArgumentsSchema = ArgumentsSchema,
> {
  resource: Resource;
  name: string;
  summary: string;
  /** The JSON array of arguments, as a zod tuple. */
  args: Args;
  /**
   * The arguments as callers write them, for the OpenAPI document and the client's types,
   * when `args` parses them with a transform that JSON Schema cannot describe
   * (responses/create). The OpenAPI agreement test checks that both accept the same arrays.
   */
  input?: Input;
  /** How the arguments read in the docs, e.g. `id: string, filters?: ProjectFilters`. */
  signature: string;
  /**
   * The result model (functions/api/result-models.ts); `z.void()` answers 204 with no body.
   * The integration tests parse every successful answer with it.
   */
  result: Result;
  /** Who may call it (functions/api/auth.ts `authorize`); `person`: a signed-in person, member or not (members/accept). */
  level: OperationLevel;
  /** Read-only operations are also served on GET with `?$p=<JSON array>`, and get read-only table access. */
  readOnly: boolean;
  /** Error codes this operation can answer with besides the ones every operation has. */
  errors: ErrorCode[];
  /** Pages by cursor: its function seals and opens cursors, so it may read the cursor secret. */
  pagesByCursor?: boolean;
  /** Seals or opens webhook signing secrets: its function may read the key that protects them. */
  opensWebhookSecrets?: boolean;
  /** Sends mail: its function gets the mail settings, the unsubscribe links' key and `ses:SendEmail` on the identity. */
  sendsMail?: boolean;
  /** Timeout of its Lambda function in seconds (default 10; API Gateway answers 504 after 29). */
  timeoutSeconds?: number;
  /** Its request body limit in bytes, when not MAX_BODY_BYTES (functions/api/limits.ts). */
  maxBodyBytes?: number;
}

/**
 * Whether the adapter writes an audit entry for a keyed caller's call (functions/api/audit.ts):
 * every operation that changes something and needs a key. The widgets' anonymous writes
 * (responses/create, edit, remove) are the data itself, not administration: never audited.
 */
export function isAudited(operation: Pick<OperationDeclaration, 'readOnly' | 'level'>): boolean {
  return !operation.readOnly && operation.level !== 'anonymous';
}

/**
 * The handler's result is typed by the declaration's result model. A handler returning
 * more fields than the model still compiles (TypeScript allows extra fields); the
 * integration tests' result check refuses such an answer.
 */
export type OperationHandler<Args extends ArgumentsSchema = ArgumentsSchema, Result extends ResultSchema = ResultSchema, S extends TableClient = Store> = (
  args: z.output<Args>,
  context: OperationContext<S>,
) => Promise<z.input<Result>>;

/** A declared operation with its implementation: what the adapter runs. */
export interface OperationDefinition<
  Args extends ArgumentsSchema = ArgumentsSchema,
  Result extends ResultSchema = ResultSchema,
  Input extends ArgumentsSchema = ArgumentsSchema,
  S extends TableClient = Store,
> extends OperationDeclaration<Args, Result, Input> {
  handler: OperationHandler<Args, Result, S>;
}

/** Any implemented operation whose handler takes the store S: what the adapter and the Lambda entries run. */
export type RunnableOperation<S extends TableClient = Store> = OperationDefinition<ArgumentsSchema, ResultSchema, ArgumentsSchema, S>;

/**
 * An operation's declaration, keeping its resource and name as literal types: the registry
 * derives every operation's name (`<resource>/<name>`) from the declarations themselves.
 */
export function declareOperation<
  const R extends Resource,
  const N extends string,
  Args extends ArgumentsSchema,
  Result extends ResultSchema,
  Input extends ArgumentsSchema = Args,
>(declaration: OperationDeclaration<Args, Result, Input> & { resource: R; name: N }): OperationDeclaration<Args, Result, Input> & { resource: R; name: N } {
  return declaration;
}

/** The declaration with its handler; the handler's arguments and result are typed by the declaration's schemas. */
export function implement<Args extends ArgumentsSchema, Result extends ResultSchema, Input extends ArgumentsSchema>(
  declaration: OperationDeclaration<Args, Result, Input>,
  handler: OperationHandler<Args, Result>,
): OperationDefinition<Args, Result, Input> {
  return { ...declaration, handler };
}

/**
 * An implementation that needs the raw table client only (functions/store/items.ts): the
 * hot path of the widgets. Its Lambda entry (`tableLambdaHandler`) loads no ElectroDB.
 */
export function implementOnTable<Args extends ArgumentsSchema, Result extends ResultSchema, Input extends ArgumentsSchema>(
  declaration: OperationDeclaration<Args, Result, Input>,
  handler: OperationHandler<Args, Result, TableClient>,
): OperationDefinition<Args, Result, Input, TableClient> {
  return { ...declaration, handler };
}

/** The argument array as callers write it (`input` when declared, else `args`), as a TypeScript type. */
export type CallerArguments<Declaration> = Declaration extends OperationDeclaration<ArgumentsSchema, ResultSchema, infer Input> ? z.input<Input> : never;

/** The result of an operation as callers receive it. */
export type OperationResult<Declaration> = Declaration extends OperationDeclaration<ArgumentsSchema, infer Result> ? z.output<Result> : never;

/** Operations whose result is `void` answer 204 with no body. */
export function answersNoContent(operation: Pick<OperationDeclaration, 'result'>): boolean {
  return operation.result instanceof z.ZodVoid;
}

export function operationPath(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string {
  return `${operation.resource}/${operation.name}`;
}
