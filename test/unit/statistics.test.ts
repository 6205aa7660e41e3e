import fc from 'fast-check';
import { changePValue, countChange, dropPValue, type ScoreSample, scoreChange, scoreInterval } from '../../functions/domain/statistics';

/*
 * Reference values.
 *
 * [N98a] R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison
 *        of seven methods", Statistics in Medicine 17 (1998) 857-872, Table II, method 3
 *        (Wilson's score method without continuity correction), to 4 decimals.
 * [N98b] R. G. Newcombe, "Interval estimation for the difference between independent
 *        proportions: comparison of eleven methods", Statistics in Medicine 17 (1998) 873-890,
 *        Table II, method 10 (the hybrid score interval without continuity correction), to 4
 *        decimals; examples (a)-(h) of the paper.
 * [SciPy] Values not published in the papers (n = 1, the t and Welch intervals) were computed
 *        independently with SciPy 1.17 on the expanded samples:
 *          scipy.stats.ttest_1samp(x, 0).confidence_interval(0.95)
 *          scipy.stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
 *          scipy.stats.norm.ppf(0.975) for Wilson's z at n = 1.
 *        and the Welch p-values likewise:
 *          scipy.stats.ttest_ind(a, b, equal_var=False).pvalue
 *          scipy.stats.ttest_ind(a, b, equal_var=False, alternative='less').pvalue (one-sided: a fell)
 */

const proportion = (successes: number, n: number): ScoreSample => ({ kind: 'proportion', successes, n });

/** The sample of `counts[i]` values `values[i]`, on the scale [min, max]. */
function mean(values: number[], counts: number[], min: number, max: number): ScoreSample {
  let n = 0;
  let sum = 0;
  let sumOfSquares = 0;
  values.forEach((value, index) => {
    n += counts[index];
    sum += counts[index] * value;
    sumOfSquares += counts[index] * value * value;
  });
  return { kind: 'mean', n, sum, sumOfSquares, min, max };
}

const FIVE = [1, 2, 3, 4, 5];

/** Two periods of shares (up to 400 responses) or of 1-5 ratings, for the properties. */
const randomShare = fc.integer({ min: 1, max: 400 }).chain((n) => fc.record({ n: fc.constant(n), successes: fc.integer({ min: 0, max: n }) }));
const randomRatings = fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 5, maxLength: 5 }).filter((counts) => counts.reduce((a, b) => a + b) > 0);
const randomPeriods = fc.oneof(
  fc.tuple(randomShare, randomShare).map(([one, two]) => [proportion(one.successes, one.n), proportion(two.successes, two.n)] as const),
  fc.tuple(randomRatings, randomRatings).map(([one, two]) => [mean(FIVE, one, 1, 5), mean(FIVE, two, 1, 5)] as const),
);

describe('scoreInterval: Wilson score interval [N98a]', () => {
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i: %f to %f', (successes, n, low, high) => {
    const interval = scoreInterval(proportion(successes, n));
    expect(interval?.method).toBe('wilson');
    expect(interval?.value).toBeCloseTo(successes / n, 12);
    expect(interval?.low).toBeCloseTo(low, 4);
    expect(interval?.high).toBeCloseTo(high, 4);
  });

  it('is exactly 0 below 0 of n and exactly 1 above n of n (the mirror of 0 of 20 [N98a])', () => {
    expect(scoreInterval(proportion(0, 20))?.low).toBe(0);
    const all = scoreInterval(proportion(20, 20));
    expect(all?.value).toBe(1);
    expect(all?.high).toBe(1);
    expect(all?.low).toBeCloseTo(1 - 0.1611, 4);
  });

  it('at n = 1 runs from the value to z^2 / (1 + z^2) of the way across [SciPy]', () => {
    // z = 1.959963984540054; z^2 / (1 + z^2) = 0.79345...
    expect(scoreInterval(proportion(0, 1))).toEqual({ value: 0, low: 0, high: expect.closeTo(0.793451, 6), method: 'wilson' });
    expect(scoreInterval(proportion(1, 1))).toEqual({ value: 1, low: expect.closeTo(0.206549, 6), high: 1, method: 'wilson' });
  });

  it('narrows as the confidence falls', () => {
    const ninety = scoreInterval(proportion(81, 263), 0.9);
    const ninetyFive = scoreInterval(proportion(81, 263));
    expect(ninety?.low).toBeGreaterThan(ninetyFive?.low ?? 1);
    expect(ninety?.high).toBeLessThan(ninetyFive?.high ?? 0);
  });

  it('is null when nothing was counted, and refuses a confidence outside (0, 1)', () => {
    expect(scoreInterval(proportion(0, 0))).toBeNull();
    expect(() => scoreInterval(proportion(1, 2), 1)).toThrow(RangeError);
    expect(() => scoreInterval(proportion(1, 2), 0)).toThrow(RangeError);
  });
});

describe('scoreInterval: Student t interval of a mean [SciPy]', () => {
  it.each([
    ['ratings 1-5, counts 2,1,3,5,9', mean(FIVE, [2, 1, 3, 5, 9], 1, 5), 3.9, 3.2757755557, 4.5242244443],
    ['ratings 1-5, counts 6,4,4,3,3', mean(FIVE, [6, 4, 4, 3, 3], 1, 5), 2.65, 1.9662806824, 3.3337193176],
    ['sentiments -1,0,0.5,1, counts 3,2,4,6', mean([-1, 0, 0.5, 1], [3, 2, 4, 6], -1, 1), 1 / 3, -0.0939184017, 0.7605850684],
  ])('%s', (_name, sample, value, low, high) => {
    expect(scoreInterval(sample)).toEqual({
      value: expect.closeTo(value, 9),
      low: expect.closeTo(low, 8),
      high: expect.closeTo(high, 8),
      method: 't',
    });
  });

  it('is clipped to the scale (ratings 4 and 5: SciPy -1.853 to 10.853; 5, 5, 1: -2.070 to 9.404)', () => {
    expect(scoreInterval(mean(FIVE, [0, 0, 0, 1, 1], 1, 5))).toEqual({ value: 4.5, low: 1, high: 5, method: 't' });
    expect(scoreInterval(mean(FIVE, [1, 0, 0, 0, 2], 1, 5))).toEqual({ value: expect.closeTo(11 / 3, 12), low: 1, high: 5, method: 't' });
  });

  it('is the whole scale for one value, and the value itself when all values are equal', () => {
    expect(scoreInterval(mean(FIVE, [0, 0, 0, 1, 0], 1, 5))).toEqual({ value: 4, low: 1, high: 5, method: 't' });
    expect(scoreInterval(mean([-1, 1], [0, 1], -1, 1))).toEqual({ value: 1, low: -1, high: 1, method: 't' });
    expect(scoreInterval(mean(FIVE, [0, 0, 0, 0, 7], 1, 5))).toEqual({ value: 5, low: 5, high: 5, method: 't' });
  });

  it('is null when nothing was counted', () => {
    expect(scoreInterval(mean(FIVE, [0, 0, 0, 0, 0], 1, 5))).toBeNull();
  });
});

describe('scoreChange: Newcombe hybrid score interval of a difference [N98b]', () => {
  it.each([
    ['(a)', 56, 70, 48, 80, 0.0524, 0.3339],
    ['(b)', 9, 10, 3, 10, 0.1705, 0.809],
    ['(c)', 6, 7, 2, 7, 0.0582, 0.8062],
    ['(d)', 5, 56, 0, 29, -0.0381, 0.1926],
    ['(e)', 0, 10, 0, 20, -0.1611, 0.2775],
    ['(f)', 0, 10, 0, 10, -0.2775, 0.2775],
    ['(g)', 10, 10, 0, 20, 0.6791, 1],
    ['(h)', 10, 10, 0, 10, 0.6075, 1],
  ])('example %s: %i/%i - %i/%i is %f to %f', (_example, x1, n1, x2, n2, low, high) => {
    const change = scoreChange(proportion(x1, n1), proportion(x2, n2));
    expect(change?.method).toBe('newcombe');
    expect(change?.delta).toBeCloseTo(x1 / n1 - x2 / n2, 12);
    expect(change?.low).toBeCloseTo(low, 4);
    expect(change?.high).toBeCloseTo(high, 4);
    expect(change?.significant).toBe(low > 0 || high < 0);
  });

  it('is the mirror image when the periods swap', () => {
    const forward = scoreChange(proportion(56, 70), proportion(48, 80));
    const backward = scoreChange(proportion(48, 80), proportion(56, 70));
    expect(backward?.delta).toBeCloseTo(-(forward?.delta ?? 0), 12);
    expect(backward?.low).toBeCloseTo(-(forward?.high ?? 0), 12);
    expect(backward?.high).toBeCloseTo(-(forward?.low ?? 0), 12);
  });

  it('with n = 1 on both sides is not significant: 1 of 1 against 0 of 1 is -0.1221 to 1', () => {
    // From the Wilson bounds at n = 1 above: low = 1 - sqrt((1 - 0.206549)^2 + 0.793451^2), high = 1 + 0.
    const change = scoreChange(proportion(1, 1), proportion(0, 1));
    expect(change).toEqual({ delta: 1, low: expect.closeTo(-0.1221, 4), high: 1, significant: false, method: 'newcombe' });
  });

  it('is null when either period counted nothing', () => {
    expect(scoreChange(proportion(0, 0), proportion(3, 10))).toBeNull();
    expect(scoreChange(proportion(3, 10), proportion(0, 0))).toBeNull();
  });
});

describe('scoreChange: Welch t interval of a difference of means [SciPy]', () => {
  it.each([
    [
      'ratings (2,1,3,5,9) - (6,4,4,3,3), df 37.69',
      mean(FIVE, [2, 1, 3, 5, 9], 1, 5),
      mean(FIVE, [6, 4, 4, 3, 3], 1, 5),
      1.25,
      0.3543025644,
      2.1456974356,
      true,
    ],
    [
      'sentiments (3,2,4,6) - (7,3,2,2), df 26.68',
      mean([-1, 0, 0.5, 1], [3, 2, 4, 6], -1, 1),
      mean([-1, 0, 0.5, 1], [7, 3, 2, 2], -1, 1),
      0.619047619,
      0.0183907642,
      1.2197044739,
      true,
    ],
    ['ratings (0,0,1,1,2) - (6,4,4,3,3), df 6.23', mean(FIVE, [0, 0, 1, 1, 2], 1, 5), mean(FIVE, [6, 4, 4, 3, 3], 1, 5), 1.6, 0.1945428216, 3.0054571784, true],
    [
      'ratings (1,0,0,2,2) - (0,2,3,0,0), df 4.88, not significant',
      mean(FIVE, [1, 0, 0, 2, 2], 1, 5),
      mean(FIVE, [0, 2, 3, 0, 0], 1, 5),
      1.2,
      -0.8062301136,
      3.2062301136,
      false,
    ],
  ])('%s', (_name, current, previous, delta, low, high, significant) => {
    expect(scoreChange(current, previous)).toEqual({
      delta: expect.closeTo(delta, 9),
      low: expect.closeTo(low, 7),
      high: expect.closeTo(high, 7),
      significant,
      method: 'welch',
    });
  });

  it('is every possible difference when a side has one value, and clipped to it otherwise', () => {
    expect(scoreChange(mean(FIVE, [0, 0, 0, 0, 1], 1, 5), mean(FIVE, [6, 4, 4, 3, 3], 1, 5))).toEqual({
      delta: 2.35,
      low: -4,
      high: 4,
      significant: false,
      method: 'welch',
    });
    // 5, 5, 1 against 1, 1, 5: SciPy -3.9020 to 6.5686, beyond the largest difference the scale allows.
    const wide = scoreChange(mean(FIVE, [1, 0, 0, 0, 2], 1, 5), mean(FIVE, [2, 0, 0, 0, 1], 1, 5));
    expect(wide).toEqual({ delta: expect.closeTo(4 / 3, 12), low: expect.closeTo(-3.901981764, 7), high: 4, significant: false, method: 'welch' });
  });

  it('is the difference itself when neither side varies', () => {
    expect(scoreChange(mean(FIVE, [0, 0, 0, 0, 4], 1, 5), mean(FIVE, [0, 0, 3, 0, 0], 1, 5))).toEqual({
      delta: 2,
      low: 2,
      high: 2,
      significant: true,
      method: 'welch',
    });
  });

  it('refuses to compare a proportion with a mean', () => {
    expect(() => scoreChange(proportion(1, 2), mean(FIVE, [1, 1, 0, 0, 0], 1, 5))).toThrow(TypeError);
  });
});

describe("changePValue: the p-value of the change's own interval", () => {
  it.each([
    ['ratings (2,1,3,5,9) - (6,4,4,3,3)', mean(FIVE, [2, 1, 3, 5, 9], 1, 5), mean(FIVE, [6, 4, 4, 3, 3], 1, 5), 0.007499836863733156],
    ['sentiments (3,2,4,6) - (7,3,2,2)', mean([-1, 0, 0.5, 1], [3, 2, 4, 6], -1, 1), mean([-1, 0, 0.5, 1], [7, 3, 2, 2], -1, 1), 0.04383981965269417],
    ['ratings (0,0,1,1,2) - (6,4,4,3,3)', mean(FIVE, [0, 0, 1, 1, 2], 1, 5), mean(FIVE, [6, 4, 4, 3, 3], 1, 5), 0.03156644358921552],
    ['ratings (1,0,0,2,2) - (0,2,3,0,0)', mean(FIVE, [1, 0, 0, 2, 2], 1, 5), mean(FIVE, [0, 2, 3, 0, 0], 1, 5), 0.18346274195446918],
  ])("Welch's t test [SciPy]: %s", (_name, current, previous, p) => {
    expect(changePValue(current, previous)).toBeCloseTo(p, 10);
    expect(changePValue(previous, current)).toBeCloseTo(p, 10);
  });

  it("Welch's: 1 when a side has one value or nothing changes; 0 for a change where neither side varies", () => {
    expect(changePValue(mean(FIVE, [0, 0, 0, 0, 1], 1, 5), mean(FIVE, [6, 4, 4, 3, 3], 1, 5))).toBe(1);
    expect(changePValue(mean(FIVE, [0, 0, 0, 0, 4], 1, 5), mean(FIVE, [0, 0, 3, 0, 0], 1, 5))).toBe(0);
    expect(changePValue(mean(FIVE, [0, 0, 4, 0, 0], 1, 5), mean(FIVE, [0, 0, 3, 0, 0], 1, 5))).toBe(1);
  });

  it.each([
    ['(a)', 56, 70, 48, 80],
    ['(b)', 9, 10, 3, 10],
    ['(c)', 6, 7, 2, 7],
    ['(d)', 5, 56, 0, 29],
    ['(g)', 10, 10, 0, 20],
    ['(h)', 10, 10, 0, 10],
  ])("Newcombe's [N98b] example %s: at confidence 1 - p the interval's end nearer 0 is 0", (_example, x1, n1, x2, n2) => {
    const p = changePValue(proportion(x1, n1), proportion(x2, n2))!;
    expect(p).toBeGreaterThan(0);
    expect(scoreChange(proportion(x1, n1), proportion(x2, n2), 1 - p)?.low).toBeCloseTo(0, 9);
    // The mirror image: the same p, the other end.
    expect(changePValue(proportion(x2, n2), proportion(x1, n1))).toBeCloseTo(p, 12);
    expect(scoreChange(proportion(x2, n2), proportion(x1, n1), 1 - p)?.high).toBeCloseTo(0, 9);
  });

  it("Newcombe's: 1 when the shares are equal ([N98b] (e), (f)); null when a side counted nothing", () => {
    expect(changePValue(proportion(0, 10), proportion(0, 20))).toBe(1);
    expect(changePValue(proportion(5, 10), proportion(10, 20))).toBe(1);
    expect(changePValue(proportion(0, 0), proportion(3, 10))).toBeNull();
  });

  it('is below a level exactly when the interval at one minus that level excludes 0, on random samples', () => {
    fc.assert(
      fc.property(randomPeriods, fc.constantFrom(0.05, 0.01, 0.001), ([current, previous], level) => {
        const p = changePValue(current, previous)!;
        // On the boundary within rounding either answer is right.
        fc.pre(Math.abs(p - level) > 1e-9);
        expect(p < level).toBe(scoreChange(current, previous, 1 - level)!.significant);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('dropPValue: the p-value of a fall, the test of an alert', () => {
  it.each([
    ['ratings (6,4,4,3,3) after (2,1,3,5,9)', mean(FIVE, [6, 4, 4, 3, 3], 1, 5), mean(FIVE, [2, 1, 3, 5, 9], 1, 5), 0.003749918431866578],
    ['sentiments (7,3,2,2) after (3,2,4,6)', mean([-1, 0, 0.5, 1], [7, 3, 2, 2], -1, 1), mean([-1, 0, 0.5, 1], [3, 2, 4, 6], -1, 1), 0.021919909826347086],
    ['ratings (6,4,4,3,3) after (0,0,1,1,2)', mean(FIVE, [6, 4, 4, 3, 3], 1, 5), mean(FIVE, [0, 0, 1, 1, 2], 1, 5), 0.01578322179460776],
    ['ratings (0,2,3,0,0) after (1,0,0,2,2)', mean(FIVE, [0, 2, 3, 0, 0], 1, 5), mean(FIVE, [1, 0, 0, 2, 2], 1, 5), 0.09173137097723459],
  ])("Welch's one-sided t test [SciPy]: %s", (_name, current, previous, p) => {
    expect(dropPValue(current, previous)).toBeCloseTo(p, 10);
    // The same samples the other way round are a rise: 1 - p.
    expect(dropPValue(previous, current)).toBeCloseTo(1 - p, 10);
  });

  it("Welch's: 1 when a side has one value; 0 for a fall and 1 for a rise where neither side varies; 0.5 for no change", () => {
    expect(dropPValue(mean(FIVE, [0, 0, 0, 0, 1], 1, 5), mean(FIVE, [6, 4, 4, 3, 3], 1, 5))).toBe(1);
    expect(dropPValue(mean(FIVE, [0, 0, 3, 0, 0], 1, 5), mean(FIVE, [0, 0, 0, 0, 4], 1, 5))).toBe(0);
    expect(dropPValue(mean(FIVE, [0, 0, 0, 0, 4], 1, 5), mean(FIVE, [0, 0, 3, 0, 0], 1, 5))).toBe(1);
    expect(dropPValue(mean(FIVE, [0, 0, 4, 0, 0], 1, 5), mean(FIVE, [0, 0, 3, 0, 0], 1, 5))).toBe(0.5);
    expect(dropPValue(mean(FIVE, [1, 0, 0, 0, 1], 1, 5), mean(FIVE, [2, 0, 0, 0, 2], 1, 5))).toBeCloseTo(0.5, 12);
  });

  it("Newcombe's [N98b] (a)-(d): the two-sided p-value for a fall, 1 for a rise or no change; null when a side counted nothing", () => {
    for (const [x1, n1, x2, n2] of [
      [56, 70, 48, 80],
      [9, 10, 3, 10],
      [6, 7, 2, 7],
      [5, 56, 0, 29],
    ]) {
      expect(dropPValue(proportion(x2, n2), proportion(x1, n1))).toBe(changePValue(proportion(x2, n2), proportion(x1, n1)));
      expect(dropPValue(proportion(x1, n1), proportion(x2, n2))).toBe(1);
    }
    expect(dropPValue(proportion(5, 10), proportion(10, 20))).toBe(1);
    expect(dropPValue(proportion(0, 0), proportion(3, 10))).toBeNull();
    expect(() => dropPValue(proportion(1, 2), mean(FIVE, [1, 1, 0, 0, 0], 1, 5))).toThrow(TypeError);
  });

  it('is below 0.025 for a mean, 0.05 for a share, exactly when the 95% interval lies below 0, on random samples', () => {
    fc.assert(
      fc.property(randomPeriods, ([current, previous]) => {
        const p = dropPValue(current, previous)!;
        const level = current.kind === 'mean' ? 0.025 : 0.05;
        fc.pre(Math.abs(p - level) > 1e-9);
        const change = scoreChange(current, previous)!;
        expect(p < level).toBe(change.high! < 0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('countChange', () => {
  it('is the difference of the counts, with no interval', () => {
    expect(countChange(12, 20)).toEqual({ delta: -8, low: null, high: null, significant: null, method: 'count' });
  });
});
