import hypergeometricPmf from '@stdlib/stats-base-dists-hypergeometric-pmf';
import { fisherRandomizedFallPValue } from '../../scripts/alerts-simulation';

const share = (successes: number, n: number) => ({ kind: 'proportion' as const, successes, n });

describe("Fisher's randomized p-value of a fall (the bench's yardstick)", () => {
  // Reference values: SciPy 1.17 `hypergeom.cdf(x - 1, N, K, n)` (u = 0) and that plus `hypergeom.pmf(x, N, K, n)` (u = 1).
  it.each([
    [17, 35, 112, 140, 6.707420928635135e-5, 0.00024700922746951335],
    [28, 35, 112, 140, 0.3963333440611843, 0.18602636266606357],
    [0, 5, 3, 10, 0, 0.26373626373626374],
    [5, 5, 0, 10, 0.9996669996669997, 0.000333000333000333],
  ])('current %i of %i, previous %i of %i: P(fewer) and P(as many) as SciPy gives them', (x1, n1, x2, n2, fewer, asMany) => {
    expect(fisherRandomizedFallPValue(share(x1, n1), share(x2, n2), 0)).toBeCloseTo(fewer, 12);
    expect(fisherRandomizedFallPValue(share(x1, n1), share(x2, n2), 1)).toBeCloseTo(fewer + asMany, 12);
    expect(fisherRandomizedFallPValue(share(x1, n1), share(x2, n2), 0.25)).toBeCloseTo(fewer + 0.25 * asMany, 12);
  });

  it.each([
    [35, 140, 120, 0.001],
    [35, 140, 150, 0.05],
    [70, 280, 300, 0.0005],
    [5, 10, 3, 0.3],
  ])('is exactly uniform when nothing changed: current n %i, previous n %i, %i successes in all, level %d', (n1, n2, total, level) => {
    // Over every count the current window can have given the total, and the draw u: the chance that p <= level is level.
    let size = 0;
    for (let x1 = Math.max(0, total - n2); x1 <= Math.min(n1, total); x1++) {
      const pmf = hypergeometricPmf(x1, n1 + n2, total, n1);
      const low = fisherRandomizedFallPValue(share(x1, n1), share(total - x1, n2), 0);
      const high = fisherRandomizedFallPValue(share(x1, n1), share(total - x1, n2), 1);
      // p = low + u (high - low) <= level for u up to (level - low) / (high - low).
      const chance = high === low ? Number(low <= level) : Math.min(1, Math.max(0, (level - low) / (high - low)));
      size += pmf * chance;
    }
    expect(size).toBeCloseTo(level, 10);
  });
});
