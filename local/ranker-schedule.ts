import { runRanker, type RankerResult } from '../functions/jobs/ranker';
import type { TableClient } from '../functions/store/dynamodb-clients';
import { RepeatingJob } from './repeating-job';

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
 * where the last run ended. A run answers undefined after a failure, which is logged.
 */
export class LocalRanker extends RepeatingJob<RankerResult | undefined> {
  constructor(options: LocalRankerOptions) {
    const clock = options.clock ?? (() => new Date());
    super({ name: 'ranker run', work: () => runRanker(options.store, clock()), fallback: undefined, intervalMs: options.intervalMs ?? 5000 });
  }
}
