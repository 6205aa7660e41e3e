import { logger } from '../functions/observability/logger';
import type { TableClient } from '../functions/store/dynamodb-clients';
import { sweepDueDeliveries } from '../functions/webhooks/sweeper';

export interface LocalWebhookSweeperOptions {
  store: TableClient;
  /** How often due deliveries are looked for (default one second). */
  intervalMs?: number;
  clock?: () => Date;
}

/**
 * The webhook sweeper for `npm start`: what the every-minute EventBridge rule and the
 * sweeper function do on AWS, every second. Pending deliveries are items of the table, so
 * a restart (even a SIGKILL) loses none: the first sweep after it sends what fell due.
 */
export class LocalWebhookSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(private readonly options: LocalWebhookSweeperOptions) {}

  start(): void {
    this.stopped = false;
    const loop = () => {
      this.running = this.sweep();
      void this.running.then(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.options.intervalMs ?? 1000);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** One sweep now; the number of deliveries it claimed (0 after a failure, which is logged). */
  async sweep(): Promise<number> {
    try {
      return (await sweepDueDeliveries(this.options.store, this.options.clock)).claimed;
    } catch (error) {
      logger.error('local webhook sweep failed', { error: error as Error });
      return 0;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
