/** A content set's alert settings and their defaults (docs/api.md "Alerts"); no statistics, so the widgets' bundles stay small. */
import type { AnySchemaConfig, Schema, SchemaConfig } from '../../shared/schema-options';
import { hasScore } from './schemas';

/** A set's alert settings as `sets/get` shows them: defaults filled in. `minDrop` is absent for schemas without a score. */
export interface AlertSettings {
  enabled: boolean;
  /** The fewest responses each window needs before a drop can alert. */
  minResponses: number;
  /** The smallest drop of the score (previous minus current, in the score's own unit) that alerts. */
  minDrop?: number;
}

/** What a caller may give (`sets/create` metadata, `sets/save`): any of the fields; the rest keep their value or default. */
export type AlertSettingsInput = Partial<AlertSettings>;

export const DEFAULT_MIN_RESPONSES = 20;
/** The default smallest drop of a share (yes-no) or a mean sentiment (reaction, tagged-message). */
export const DEFAULT_MIN_DROP = 0.1;
/** The default smallest drop of a mean rating on a 1-5 scale; other scales scale it by their range. */
export const DEFAULT_RATING_MIN_DROP = 0.5;
/** An entity alerts at most once in this many days, however often it is evaluated. */
export const ALERT_QUIET_DAYS = 7;
/** The windows: the last CURRENT_DAYS complete days (to yesterday) against the PREVIOUS_DAYS days before them. */
export const CURRENT_DAYS = 7;
export const PREVIOUS_DAYS = 28;
/** Alert records are kept this long (DynamoDB TTL), like the audit log. */
export const ALERT_RETENTION_DAYS = 400;

/**
 * An account's alert settings (alerts/settings, alerts/saveSettings): the false discovery
 * rate of each day's evaluation, the expected share of false alerts among the alerts it
 * raises for the account (functions/domain/multiple-testing.ts).
 */
export interface AccountAlertSettings {
  falseDiscoveryRate: number;
}

export const DEFAULT_FALSE_DISCOVERY_RATE = 0.05;
/** The rates an account may choose: from one in a thousand to one in four. */
export const MIN_FALSE_DISCOVERY_RATE = 0.001;
export const MAX_FALSE_DISCOVERY_RATE = 0.25;

/** An account's settings as stored (absent before any was saved) with the default filled in. */
export function accountAlertSettingsOf(stored: Partial<AccountAlertSettings> | undefined): AccountAlertSettings {
  return { falseDiscoveryRate: stored?.falseDiscoveryRate ?? DEFAULT_FALSE_DISCOVERY_RATE };
}

/** The measure a schema's score is, in words and formats: a share, a rating, or a sentiment; undefined for schemas without a score. */
export type ScoreMeasure = 'share' | 'rating' | 'sentiment';

export function scoreMeasureOf(schema: Schema): ScoreMeasure | undefined {
  if (!hasScore(schema)) return undefined;
  return schema === 'yes-no' ? 'share' : schema === 'rating' ? 'rating' : 'sentiment';
}

/** The default smallest drop of a schema's score: 0.10 of a share or a sentiment, 0.5 of a 1-5 rating, scaled by the rating's range. */
export function defaultMinDrop(schema: Schema, config: AnySchemaConfig): number | undefined {
  const measure = scoreMeasureOf(schema);
  if (measure === undefined) return undefined;
  if (measure !== 'rating') return DEFAULT_MIN_DROP;
  const { min, max } = config as SchemaConfig['rating'];
  return (DEFAULT_RATING_MIN_DROP * (max - min)) / 4;
}

/** A set's settings with the defaults filled in: on for sets with a score, off (and no `minDrop`) for the others. */
export function alertSettingsOf(schema: Schema, config: AnySchemaConfig, stored: AlertSettingsInput | undefined): AlertSettings {
  const minDrop = defaultMinDrop(schema, config);
  if (minDrop === undefined) return { enabled: false, minResponses: stored?.minResponses ?? DEFAULT_MIN_RESPONSES };
  return {
    enabled: stored?.enabled ?? true,
    minResponses: stored?.minResponses ?? DEFAULT_MIN_RESPONSES,
    minDrop: stored?.minDrop ?? minDrop,
  };
}

/** Why settings cannot be stored for a schema (alerts on a set without a score), or undefined. */
export function alertSettingsProblem(schema: Schema, input: AlertSettingsInput): string | undefined {
  if (scoreMeasureOf(schema) !== undefined) return undefined;
  if (input.enabled === true) return `sets of schema ${schema} have no score, so they cannot alert`;
  if (input.minDrop !== undefined) return `sets of schema ${schema} have no score, so they have no minDrop`;
  return undefined;
}
