/** Why an alert fired, in words (the alert's `significance`: docs/api.md "Alerts"). */
import type { Alert } from '@feedback-service/client';
import { plural } from './format';

/** Below this a probability is said as a bound: JavaScript would write it with an exponent. */
const SMALLEST_SAID = 0.000001;

/** A probability as a person reads it: two significant digits in decimals, and "< 0.000001" below that. */
function formatProbability(value: number): string {
  return value < SMALLEST_SAID ? `< ${SMALLEST_SAID.toFixed(6)}` : String(Number(value.toPrecision(2)));
}

/** "p = 0.00041, under 0.005, the threshold of the day's 30 tests at a 5% false discovery rate." */
export function significanceWords(significance: NonNullable<Alert['significance']>): string {
  const p = formatProbability(significance.pValue);
  const rate = Number((significance.falseDiscoveryRate * 100).toPrecision(3));
  return `p ${p.startsWith('<') ? p : `= ${p}`}, under ${formatProbability(significance.threshold)}, the threshold of the day’s ${plural(significance.tested, 'test')} at a ${rate}% false discovery rate.`;
}
