/**
 * Why an alert fired, in words (an alert's `significance`: docs/api.md "Alerts"): the one
 * wording the console, the Slack and Discord lines and the alert mails share.
 */

/** The parts of an alert's `significance` the words say. */
export interface SignificanceSaid {
  pValue: number;
  threshold: number;
  falseDiscoveryRate: number;
  tested: number;
}

/** Below this a probability is said as a bound: JavaScript would write it with an exponent. */
const SMALLEST_SAID = 0.000001;

/** A probability as a person reads it: two significant digits in decimals, and "< 0.000001" below that. */
function formatProbability(value: number): string {
  return value < SMALLEST_SAID ? `< ${SMALLEST_SAID.toFixed(6)}` : String(Number(value.toPrecision(2)));
}

/** "p = 0.00041, under 0.005, the threshold of the day’s 30 tests at a 5% false discovery rate." */
export function significanceWords(significance: SignificanceSaid): string {
  const p = formatProbability(significance.pValue);
  const rate = Number((significance.falseDiscoveryRate * 100).toPrecision(3));
  const tests = `${significance.tested.toLocaleString('en')} ${significance.tested === 1 ? 'test' : 'tests'}`;
  return `p ${p.startsWith('<') ? p : `= ${p}`}, under ${formatProbability(significance.threshold)}, the threshold of the day’s ${tests} at a ${rate}% false discovery rate.`;
}
