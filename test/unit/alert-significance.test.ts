/** Why an alert fired, in words (shared/alert-significance.ts): its p-value, the threshold and the rate, as the console, Slack, Discord and mails say it. */
import { significanceWords } from '../../shared/alert-significance';

const significance = (pValue: number, threshold: number, tested: number, falseDiscoveryRate = 0.05) => ({
  method: 'benjamini-hochberg' as const,
  pValue,
  adjustedPValue: pValue,
  threshold,
  falseDiscoveryRate,
  tested,
});

describe('significanceWords', () => {
  it('says the p-value and the threshold to two digits, the tests and the rate', () => {
    expect(significanceWords(significance(0.000412, 0.005000000000000001, 30))).toBe(
      'p = 0.00041, under 0.005, the threshold of the day’s 30 tests at a 5% false discovery rate.',
    );
    expect(significanceWords(significance(0.0234, 0.05, 1, 0.1))).toBe(
      'p = 0.023, under 0.05, the threshold of the day’s 1 test at a 10% false discovery rate.',
    );
  });

  it('says a p-value below one in a million as a bound, and never with an exponent', () => {
    expect(significanceWords(significance(2.2e-9, 0.0000489, 1023))).toBe(
      'p < 0.000001, under 0.000049, the threshold of the day’s 1,023 tests at a 5% false discovery rate.',
    );
    expect(significanceWords(significance(0.0000012, 0.0000489, 1023))).toMatch(/^p = 0\.0000012, /);
  });
});
