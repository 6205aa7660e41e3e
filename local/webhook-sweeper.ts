import type { TableClient } from '../functions/store/dynamodb-clients';
import { sweepDueDeliveries } from '../functions/webhooks/sweeper';
import { RepeatingJob } from './repeating-job';

export interface LocalWebhookSweeperOptions {
  store: TableClient;
  /** How often due deliveries are looked for (default one second). */
  intervalMs?: number;
  clock?: () => Date;
}

/**
 * The webhook sweeper for `npm start`: what the every-minute EventBridge rule and the
 * sweeper function do on AWS, every second. Pending deliveries are items of the table, so
 * a restart (even a SIGKILL) loses none: the first sweep after it sends what fell due. A
 * sweep answers the number of deliveries it claimed (0 after a failure, which is logged).
 */
export class LocalWebhookSweeper extends RepeatingJob<number> {
  constructor(options: LocalWebhookSweeperOptions) {
    super({
      name: 'webhook sweep',
      work: async () => (await sweepDueDeliveries(options.store, options.clock)).claimed,
      fallback: 0,
      intervalMs: options.intervalMs ?? 1000,
    });
  }
}
