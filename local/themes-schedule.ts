import { runThemes, type ThemesResult } from '../functions/jobs/themes';
import type { TableClient } from '../functions/store/dynamodb-clients';
import { RepeatingJob } from './repeating-job';

/** THEMES_INTERVAL_SECONDS in ms, or 30 s. */
export function themesIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.THEMES_INTERVAL_SECONDS ?? 30);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(`THEMES_INTERVAL_SECONDS must be a positive number of seconds, not "${env.THEMES_INTERVAL_SECONDS}"`);
  return seconds * 1000;
}

/** The themes job for `npm start`: what the every-minute EventBridge rule does on AWS, every THEMES_INTERVAL_SECONDS (30 s). */
export class LocalThemes extends RepeatingJob<ThemesResult | undefined> {
  constructor(options: { store: TableClient; intervalMs?: number; clock?: () => Date }) {
    const clock = options.clock ?? (() => new Date());
    super({ name: 'themes run', work: () => runThemes(options.store, clock()), fallback: undefined, intervalMs: options.intervalMs ?? themesIntervalMs() });
  }
}
