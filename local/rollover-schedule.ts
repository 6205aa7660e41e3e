import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { logger } from '../functions/observability/logger';
import { addBuckets, bucketKey } from '../shared/periods';
import { MAX_ROLLOVER_DAYS, rollOver, type RolloverResult } from '../functions/jobs/rollover';
import type { TableClient } from '../functions/store/dynamodb-clients';

/** Minutes after midnight UTC of the daily run: the stack's schedule (lib/rollover-job.ts, cron 00:05). */
export const ROLLOVER_MINUTE_OF_DAY = 5;

export interface LocalRolloverScheduleOptions {
  store: TableClient;
  /** Where the day of the last run is kept across restarts; omitted = in memory. */
  dataDir?: string;
  /** The time; tests move it across midnight. */
  clock?: () => Date;
  /** How often the clock is looked at (default one minute). */
  checkEveryMs?: number;
}

const dayMs = 24 * 3600 * 1000;

/** The day whose run is due at `now`: today once it is 00:05 UTC, else yesterday. */
function dueDay(now: Date): string {
  return bucketKey('day', new Date(now.getTime() - ROLLOVER_MINUTE_OF_DAY * 60_000));
}

/**
 * The daily rollover for `npm start`: what the EventBridge schedule does on AWS. It looks at
 * the clock every minute rather than sleeping until 00:05, so a laptop that slept through
 * midnight, or a server that was stopped, catches up: a run covers every day since the last
 * one (`days`, up to the job's backfill limit), and the day of the last run is kept in the
 * data folder. A fresh data folder runs today's once at start (the job is idempotent).
 */
export class LocalRolloverSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private lastRunDay: string | undefined;
  private readonly clock: () => Date;
  private readonly stateFile: string | undefined;

  constructor(private readonly options: LocalRolloverScheduleOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.stateFile = options.dataDir ? join(options.dataDir, 'rollover.json') : undefined;
    if (this.stateFile && existsSync(this.stateFile)) this.lastRunDay = JSON.parse(readFileSync(this.stateFile, 'utf8')).lastRunDay;
  }

  start(): void {
    const loop = () => {
      this.running = this.runIfDue().catch((error) => logger.error('local rollover failed', { error: error as Error }));
      void this.running.then(() => {
        if (this.timer !== undefined) this.timer = setTimeout(loop, this.options.checkEveryMs ?? 60_000);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Runs the rollover when a day's run is due and not done yet; the result of the run, if any. */
  async runIfDue(): Promise<RolloverResult | undefined> {
    const now = this.clock();
    const due = dueDay(now);
    if (this.lastRunDay !== undefined && this.lastRunDay >= due) return undefined;
    const missed = this.lastRunDay === undefined ? 1 : Math.round((Date.parse(due) - Date.parse(this.lastRunDay)) / dayMs);
    const days = Math.min(Math.max(missed, 1), MAX_ROLLOVER_DAYS);
    const result = await rollOver(this.options.store, now, { days });
    this.lastRunDay = due;
    if (this.stateFile) {
      writeFileSync(`${this.stateFile}.tmp`, JSON.stringify({ lastRunDay: due }), { mode: 0o600 });
      renameSync(`${this.stateFile}.tmp`, this.stateFile);
    }
    logger.info('rolling windows recomputed', {
      ...result,
      days,
      nextRun: `${bucketKey('day', addBuckets('day', new Date(Date.parse(due)), 1))}T00:0${ROLLOVER_MINUTE_OF_DAY}Z`,
    });
    return result;
  }
}
