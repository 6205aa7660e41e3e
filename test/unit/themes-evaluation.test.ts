import { adjustedRandIndex, EVALUATION_SITES, loadEvaluationSite, NOISE, RISING, vMeasure } from '../../scripts/themes-evaluation';

/** scikit-learn's documented examples of v_measure_score and adjusted_rand_score. */
describe('clustering scores against published examples', () => {
  test('V-measure', () => {
    expect(vMeasure(['0', '0', '1', '1'], ['0', '0', '1', '1']).v).toBeCloseTo(1, 10);
    expect(vMeasure(['0', '0', '1', '1'], ['1', '1', '0', '0']).v).toBeCloseTo(1, 10);
    expect(vMeasure(['0', '0', '1', '2'], ['0', '0', '1', '1']).v).toBeCloseTo(0.8, 10);
    expect(vMeasure(['0', '1', '2', '3'], ['0', '0', '1', '1']).v).toBeCloseTo(0.6666666666666666, 10);
    expect(vMeasure(['0', '0', '1', '1'], ['0', '1', '0', '1']).v).toBeCloseTo(0, 10);
    expect(vMeasure(['0', '0', '1', '1'], ['0', '0', '0', '0']).v).toBeCloseTo(0, 10);
    expect(vMeasure(['0', '0', '1', '2'], ['0', '0', '1', '1']).homogeneity).toBeCloseTo(0.6666666666666666, 10);
  });

  test('adjusted Rand index', () => {
    expect(adjustedRandIndex(['0', '0', '1', '1'], ['1', '1', '0', '0'])).toBeCloseTo(1, 10);
    expect(adjustedRandIndex(['0', '0', '1', '2'], ['0', '0', '1', '1'])).toBeCloseTo(0.5714285714285715, 10);
    expect(adjustedRandIndex(['0', '0', '1', '1'], ['0', '0', '1', '2'])).toBeCloseTo(0.5714285714285715, 10);
    expect(adjustedRandIndex(['0', '0', '0', '0'], ['0', '1', '2', '3'])).toBeCloseTo(0, 10);
    expect(adjustedRandIndex(['0', '0', '1', '1'], ['0', '1', '0', '1'])).toBeCloseTo(-0.5, 10);
  });
});

describe('the evaluation set', () => {
  test.each(EVALUATION_SITES)('%s: size, noise, uneven themes, dates and pages', (site) => {
    const messages = loadEvaluationSite(site);
    const sizes = new Map<string, number>();
    for (const message of messages) sizes.set(message.gold, (sizes.get(message.gold) ?? 0) + 1);
    const themes = [...sizes].filter(([gold]) => gold !== NOISE).map(([, size]) => size);
    expect(messages.length).toBeGreaterThanOrEqual(160);
    expect(themes.length).toBeGreaterThanOrEqual(6);
    expect(themes.length).toBeLessThanOrEqual(9);
    expect(Math.max(...themes)).toBeGreaterThan(2 * Math.min(...themes));
    expect((sizes.get(NOISE) ?? 0) / messages.length).toBeGreaterThan(0.08);
    expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length);
    for (const message of messages) {
      expect(Number.isNaN(Date.parse(message.createdAt))).toBe(false);
      expect(message.page.startsWith('/')).toBe(true);
      expect(['yes', 'no']).toContain(message.tag);
    }
    expect(sizes.has(RISING[site].gold)).toBe(true);
  });
});
