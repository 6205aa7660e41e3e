/**
 * A function of the cloud assembly run like a warm Lambda execution environment: one
 * `node` process per function (its own environment, as separate Lambdas have), started
 * in the function's code directory, loading its handler once (the init phase) and then
 * invoked any number of times. See local-lambda-driver.cjs for the process side.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';

export interface LocalLambdaOptions {
  /** Shown in errors and given as AWS_LAMBDA_FUNCTION_NAME. */
  name: string;
  /** The function's code directory (the asset `cdk deploy` zips and uploads). */
  taskRoot: string;
  /** `index.handler`. */
  handler: string;
  /** The complete environment of the process (nothing is inherited from the test). */
  environment: Record<string, string>;
  timeoutSeconds: number;
  /**
   * Runs the process's clock (Date) this far ahead of the real one, to play a later day.
   * @default 0
   */
  clockOffsetMs?: number;
  /** Lambda's init phase limit. @default 10 */
  initTimeoutSeconds?: number;
}

export type Invocation = { ok: true; value: any; ms: number } | { ok: false; error: { name: string; message: string; stack?: string }; ms: number };

type Message =
  | { type: 'ready' }
  | { type: 'init-error'; error: { name: string; message: string; stack?: string } }
  | { type: 'crash'; error: { name: string; message: string; stack?: string } }
  | { type: 'result'; id: string; ok: boolean; value?: unknown; error?: { name: string; message: string; stack?: string } };

const DRIVER = path.join(__dirname, 'local-lambda-driver.cjs');
/** Keep the tail of a function's output for error messages. */
const MAX_LOG_CHARS = 20_000;

export class LocalLambda {
  private output = '';
  private readonly pending = new Map<string, (message: Extract<Message, { type: 'result' }>) => void>();
  private exited: string | undefined;

  private constructor(
    readonly options: LocalLambdaOptions,
    private readonly child: ChildProcess,
  ) {}

  /** Starts the environment and waits for its init phase; fails with the function's output if init fails. */
  static async start(options: LocalLambdaOptions): Promise<{ lambda: LocalLambda; initMs: number }> {
    const started = Date.now();
    const child = fork(DRIVER, [options.taskRoot, options.handler, String(options.clockOffsetMs ?? 0)], {
      cwd: options.taskRoot,
      env: options.environment,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const lambda = new LocalLambda(options, child);
    const capture = (chunk: Buffer) => {
      lambda.output = (lambda.output + chunk.toString('utf8')).slice(-MAX_LOG_CHARS);
    };
    child.stdout!.on('data', capture);
    child.stderr!.on('data', capture);
    child.on('message', (message: Message) => {
      if (message.type === 'result') lambda.pending.get(message.id)?.(message);
      if (message.type === 'crash') lambda.output += `\n[uncaught] ${message.error.stack ?? message.error.message}\n`;
    });
    child.on('exit', (code, signal) => {
      lambda.exited = `exited (code ${code}, signal ${signal})`;
      for (const [id, settle] of lambda.pending) settle({ type: 'result', id, ok: false, error: { name: 'Runtime.ExitError', message: lambda.exited } });
    });

    const initTimeout = (options.initTimeoutSeconds ?? 10) * 1000;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${options.name}: init did not finish within ${initTimeout} ms\n${lambda.output}`));
      }, initTimeout);
      child.on('message', (message: Message) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (message.type === 'init-error') {
          clearTimeout(timer);
          reject(new Error(`${options.name}: init failed: ${message.error.stack ?? message.error.message}\n${lambda.output}`));
        }
      });
      child.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(`${options.name}: ${lambda.exited} during init\n${lambda.output}`));
      });
    });
    return { lambda, initMs: Date.now() - started };
  }

  /** One invocation with the function's timeout; an error or timeout is an answer, not a throw. */
  async invoke(event: unknown): Promise<Invocation> {
    const id = randomUUID();
    const started = Date.now();
    const timeoutMs = this.options.timeoutSeconds * 1000;
    if (this.exited) return { ok: false, error: { name: 'Runtime.ExitError', message: this.exited }, ms: 0 };
    return new Promise<Invocation>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // Lambda ends an execution environment whose invocation timed out.
        this.child.kill('SIGKILL');
        resolve({
          ok: false,
          error: { name: 'Sandbox.Timedout', message: `Task timed out after ${this.options.timeoutSeconds} seconds` },
          ms: Date.now() - started,
        });
      }, timeoutMs);
      this.pending.set(id, (message) => {
        clearTimeout(timer);
        this.pending.delete(id);
        const ms = Date.now() - started;
        resolve(message.ok ? { ok: true, value: message.value, ms } : { ok: false, error: message.error!, ms });
      });
      this.child.send({ type: 'invoke', id, requestId: id, event, timeoutMs });
    });
  }

  /** What the function wrote to stdout and stderr so far (its log), for error messages. */
  logs(): string {
    return this.output;
  }

  /**
   * Ends the environment and waits until its process has exited (SIGKILL after 5 s), so that
   * no function outlives the file that started it, and its CPU counts to that file
   * (test/support/cpu-environment.js).
   */
  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((done) => this.child.once('exit', () => done()));
    this.child.kill('SIGTERM');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  }
}
