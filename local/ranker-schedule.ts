import { logger } from '../functions/observability/logger';
import { runRanker, type RankerResult } from '../functions/jobs/ranker';
import type { TableClient } from '../functions/store/dynamodb-clients';

export interface LocalRankerOptions {
  store: TableClient;
  /** How often the ranker runs (default 5 s; on AWS every minute). */
  intervalMs?: number;
  /** The time; tests move it across midnight. */
  clock?: () => Date;
}

/**
 * The ranker for `npm start`: what the every-minute EventBridge rule does on AWS, every few
 * seconds, one run at a time. Its checkpoint is an item of the table, so a restart resumes
 * where the last run ended.
 */
export class LocalRanker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;
  private readonly clock: () => Date;

  constructor(private readonly options: LocalRankerOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  start(): void {
    this.stopped = false;
    const loop = () => {
      this.running = this.run();
      void this.running.then(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.options.intervalMs ?? 5000);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** One run now, after the one in progress; undefined after a failure, which is logged. */
  run(): Promise<RankerResult | undefined> {
    const next = this.running.then(() =>
      runRanker(this.options.store, this.clock()).catch((error) => {
        logger.error('local ranker run failed', { error: error as Error });
        return undefined;
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
