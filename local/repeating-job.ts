import { logger } from '../functions/observability/logger';

/**
 * A job `npm start` repeats the way an EventBridge rule runs it on AWS: every `intervalMs`
 * after the last run ended, one run at a time. A failed run is logged and answers
 * `fallback`; the next one comes as usual. Stopping waits for the run in progress.
 */
export class RepeatingJob<Result> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(private readonly job: { name: string; work: () => Promise<Result>; fallback: Result; intervalMs: number }) {}

  start(): void {
    this.stopped = false;
    const loop = () => {
      void this.run().then(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.job.intervalMs);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** One run now, after the one in progress. */
  run(): Promise<Result> {
    const next = this.running.then(() =>
      this.job.work().catch((error) => {
        logger.error(`local ${this.job.name} failed`, { error: error as Error });
        return this.job.fallback;
      }),
    );
    this.running = next;
    return next;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
