import fc from 'fast-check';
import { benjaminiHochberg } from '../../functions/domain/multiple-testing';

/*
 * Reference values.
 *
 * [BH95] Y. Benjamini and Y. Hochberg, "Controlling the false discovery rate: a practical and
 *        powerful approach to multiple testing", Journal of the Royal Statistical Society B 57
 *        (1995) 289-300, section 4: the 15 p-values of Neuhaus et al.'s thrombolysis trial.
 *        At q = 0.05 the procedure rejects the four smallest (p(4) = 0.0095 <= 4/15 x 0.05
 *        and no larger k qualifies), where Bonferroni's rejects three.
 * [SciPy] The adjusted p-values of the same 15, computed independently with SciPy 1.17:
 *          scipy.stats.false_discovery_control(p, method='bh')
 *        (the same as R's p.adjust(p, method = "BH")).
 */
const BH95 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1];
const BH95_ADJUSTED = [
  0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714285714286, 0.06385714285714286, 0.0645, 0.0765, 0.486, 0.5811818181818181, 0.714875, 0.7532307692307693,
  0.8132142857142857, 1,
];

describe('benjaminiHochberg', () => {
  test('[BH95] rejects the four smallest of the 15 p-values at 0.05, whose threshold is 4 x 0.05 / 15', () => {
    const { each, threshold } = benjaminiHochberg(BH95, 0.05);
    expect(each.map((discovery) => discovery.rejected)).toEqual(BH95.map((_, index) => index < 4));
    expect(threshold).toBeCloseTo((4 * 0.05) / 15, 15);
    // Bonferroni's threshold, 0.05 / 15, would have stopped at the third.
    expect(BH95.filter((p) => p <= 0.05 / 15)).toHaveLength(3);
  });

  test('[SciPy] the adjusted p-values of the 15, in the order given', () => {
    const shuffled = [7, 3, 14, 0, 9, 1, 12, 5, 2, 11, 4, 13, 6, 10, 8];
    const { each } = benjaminiHochberg(
      shuffled.map((index) => BH95[index]),
      0.05,
    );
    expect(each.map((discovery) => discovery.adjustedPValue)).toEqual(shuffled.map((index) => expect.closeTo(BH95_ADJUSTED[index], 12)));
  });

  test('one p-value is compared with the level itself; none is nothing', () => {
    expect(benjaminiHochberg([0.049], 0.05)).toEqual({ each: [{ rejected: true, adjustedPValue: 0.049 }], threshold: 0.05 });
    expect(benjaminiHochberg([0.051], 0.05)).toEqual({ each: [{ rejected: false, adjustedPValue: 0.051 }], threshold: 0 });
    expect(benjaminiHochberg([], 0.05)).toEqual({ each: [], threshold: 0 });
    expect(() => benjaminiHochberg([0.5], 0)).toThrow(RangeError);
    expect(() => benjaminiHochberg([0.5], 1)).toThrow(RangeError);
  });

  test('agrees with the definition, by brute force, on random p-values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0.001, max: 0.25, noNaN: true }),
        (pValues, level) => {
          const m = pValues.length;
          const sorted = [...pValues].sort((a, b) => a - b);
          // A p-value within rounding of its step's bound could go either way: such draws say nothing.
          fc.pre(sorted.every((p, index) => Math.abs(p - ((index + 1) * level) / m) > 1e-12));
          // The largest k with p(k) <= k q / m, trying every k.
          let k = 0;
          for (let candidate = 1; candidate <= m; candidate++) if (sorted[candidate - 1] <= (candidate * level) / m) k = candidate;
          const { each, threshold } = benjaminiHochberg(pValues, level);
          expect(each.filter((discovery) => discovery.rejected)).toHaveLength(k);
          expect(threshold).toBeCloseTo((k * level) / m, 15);
          pValues.forEach((p, index) => {
            expect(each[index].rejected).toBe(k > 0 && p <= sorted[k - 1]);
            // Every rejected one is at or below the threshold; every other one above it.
            expect(p <= threshold).toBe(each[index].rejected);
            // The adjusted p-value: the smallest level at which it is rejected (capped at 1).
            const smallest = Math.min(1, ...sorted.map((q, j) => (j >= sorted.indexOf(p) ? (q * m) / (j + 1) : 1)));
            expect(each[index].adjustedPValue).toBeCloseTo(smallest, 12);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
