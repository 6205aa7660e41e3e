import { addContribution, emptyCounter, mergeCounters, sumCounters, summaryOf, type Counter } from '../../functions/domain/aggregation';
import {
  buildAggregation,
  buildProjectAggregation,
  normalizeValue,
  optionLabels,
  parseSchemaConfig,
  type Contribution,
  type Schema,
} from '../../functions/domain/schemas';

/** The contribution a value makes, taken from the schema module as the stream consumer does. */
function contributionOf(schema: Schema, value: unknown, config: unknown = undefined): Contribution {
  const parsed = parseSchemaConfig(schema, config);
  if (!parsed.success) throw new Error(`bad config: ${parsed.error.message}`);
  const result = normalizeValue(schema, parsed.data, value);
  if (!result.ok) throw new Error(`bad value: ${result.reason}`);
  return result.contribution;
}

function optionCountOf(schema: Schema, config: unknown = undefined): number {
  const parsed = parseSchemaConfig(schema, config);
  if (!parsed.success) throw new Error(`bad config: ${parsed.error.message}`);
  return optionLabels(schema, parsed.data).length;
}

/** A counter of the given values, each counted once. */
function counterOf(schema: Schema, values: unknown[], config: unknown = undefined): Counter {
  return values.reduce<Counter>(
    (counter, value) => addContribution(counter, contributionOf(schema, value, config), 1),
    emptyCounter(optionCountOf(schema, config)),
  );
}

describe('emptyCounter', () => {
  it('is all zeros with one slot per option', () => {
    expect(emptyCounter(3)).toEqual({
      count: 0,
      options: [0, 0, 0],
      sentimentSum: 0,
      sentimentCount: 0,
      intensitySum: 0,
      intensityCount: 0,
      ratingSum: 0,
    });
    expect(emptyCounter(0).options).toEqual([]);
  });
});

describe('addContribution', () => {
  it('adds a response with weight +1', () => {
    const counter = addContribution(emptyCounter(3), { option: 1, sentiment: -0.5, intensity: 0.7 }, 1);
    expect(counter).toEqual({
      count: 1,
      options: [0, 1, 0],
      sentimentSum: -0.5,
      sentimentCount: 1,
      intensitySum: 0.7,
      intensityCount: 1,
      ratingSum: 0,
    });
  });

  it('takes a response back with weight -1', () => {
    const added = addContribution(emptyCounter(3), { option: 2, sentiment: 1, intensity: 0.9 }, 1);
    const twice = addContribution(added, { option: 0, sentiment: -1, intensity: 0.5 }, 1);
    const removed = addContribution(twice, { option: 2, sentiment: 1, intensity: 0.9 }, -1);
    expect(removed).toEqual({
      count: 1,
      options: [1, 0, 0],
      sentimentSum: -1,
      sentimentCount: 1,
      // Counters keep the exact float sum (0.9 + 0.5 - 0.9); reads round it.
      intensitySum: expect.closeTo(0.5, 12),
      intensityCount: 1,
      ratingSum: 0,
    });
  });

  it('counts an edit as -1 of the old value and +1 of the new one', () => {
    const created = addContribution(emptyCounter(5), { option: 4, rating: 5 }, 1);
    const edited = addContribution(addContribution(created, { option: 4, rating: 5 }, -1), { option: 1, rating: 2 }, 1);
    expect(edited).toEqual({ ...emptyCounter(5), count: 1, options: [0, 1, 0, 0, 0], ratingSum: 2 });
  });

  it('adds sentiment, intensity and rating only when the contribution has them', () => {
    const pulse = addContribution(emptyCounter(1), { option: 0 }, 1);
    expect(pulse).toEqual({ ...emptyCounter(1), count: 1, options: [1] });

    const tagged = addContribution(emptyCounter(3), { option: 0, sentiment: 0 }, 1);
    expect(tagged).toEqual({ ...emptyCounter(3), count: 1, options: [1, 0, 0], sentimentCount: 1 });

    const rated = addContribution(emptyCounter(5), { option: 3, rating: 4 }, 1);
    expect(rated).toEqual({ ...emptyCounter(5), count: 1, options: [0, 0, 0, 1, 0], ratingSum: 4 });
  });

  it('can go below zero when a removal comes first', () => {
    const counter = addContribution(emptyCounter(2), { option: 0, sentiment: 1 }, -1);
    expect(counter).toEqual({ ...emptyCounter(2), count: -1, options: [-1, 0], sentimentSum: -1, sentimentCount: -1 });
  });

  it('grows options for an option beyond their length', () => {
    expect(addContribution(emptyCounter(0), { option: 2 }, 1).options).toEqual([0, 0, 1]);
    expect(addContribution(emptyCounter(2), { option: 2 }, -1).options).toEqual([0, 0, -1]);
  });

  it('does not change the counter it is given', () => {
    const counter = emptyCounter(2);
    addContribution(counter, { option: 3, sentiment: 1, intensity: 1, rating: 1 }, 1);
    expect(counter).toEqual(emptyCounter(2));
  });

  it('rejects an option index that is negative or fractional', () => {
    expect(() => addContribution(emptyCounter(2), { option: -1 }, 1)).toThrow(RangeError);
    expect(() => addContribution(emptyCounter(2), { option: 0.5 }, 1)).toThrow(RangeError);
  });
});

describe('mergeCounters and sumCounters', () => {
  const a: Counter = { count: 3, options: [1, 2], sentimentSum: 0.5, sentimentCount: 3, intensitySum: 1.2, intensityCount: 2, ratingSum: 7 };
  const b: Counter = { count: -1, options: [0, -1, 4], sentimentSum: -1, sentimentCount: 1, intensitySum: 0, intensityCount: 0, ratingSum: 1 };

  it('sums element-wise, options of different lengths included', () => {
    const merged = { count: 2, options: [1, 1, 4], sentimentSum: -0.5, sentimentCount: 4, intensitySum: 1.2, intensityCount: 2, ratingSum: 8 };
    expect(mergeCounters(a, b)).toEqual(merged);
    expect(mergeCounters(b, a)).toEqual(merged);
  });

  it('does not change its arguments', () => {
    mergeCounters(a, b);
    expect(a.options).toEqual([1, 2]);
    expect(b.options).toEqual([0, -1, 4]);
  });

  it('sums a list, and an empty list to an empty counter of optionCount', () => {
    expect(sumCounters([a, b, a], 2)).toEqual({
      count: 5,
      options: [2, 3, 4],
      sentimentSum: 0,
      sentimentCount: 7,
      intensitySum: 2.4,
      intensityCount: 4,
      ratingSum: 15,
    });
    expect(sumCounters([], 4)).toEqual(emptyCounter(4));
  });
});

describe('buildAggregation', () => {
  describe.each(['pulse', 'message'] as const)('%s', (schema) => {
    const value = schema === 'pulse' ? '+' : 'Nice page';

    it('gives the count of the period', () => {
      const points = [counterOf(schema, [value, value]), emptyCounter(1), counterOf(schema, [value])];
      expect(buildAggregation(schema, 1, 'week', points)).toEqual({ schema, period: 'week', values: [3], count: 3, points: [2, 0, 1] });
    });

    it('gives zeros without responses', () => {
      expect(buildAggregation(schema, 1, 'day', [emptyCounter(1), emptyCounter(1)])).toEqual({ schema, period: 'day', values: [0], count: 0, points: [0, 0] });
      expect(buildAggregation(schema, 1, 'day', [])).toEqual({ schema, period: 'day', values: [0], count: 0, points: [] });
    });
  });

  describe('yes-no', () => {
    it('counts yes and no per period and point', () => {
      const points = [counterOf('yes-no', ['y', 'yes', 'n']), emptyCounter(2), counterOf('yes-no', [true, 1, '+1'])];
      expect(buildAggregation('yes-no', 2, 'rolling7d', points)).toEqual({
        schema: 'yes-no',
        period: 'rolling7d',
        values: [5, 1],
        count: 6,
        counts: [5, 1],
        summary: 0.666667,
        points: [
          [2, 1],
          [0, 0],
          [3, 0],
        ],
      });
    });

    it.each([
      [['y', 'y'], 1],
      [['n', 'n', 'n'], -1],
      [['y', 'n'], 0],
      [['y', 'n', 'n', 'n'], -0.5],
    ])('summarizes %j as %d', (values, summary) => {
      expect(summaryOf(buildAggregation('yes-no', 2, 'day', [counterOf('yes-no', values)]))).toBe(summary);
    });

    it('gives zeros without responses', () => {
      expect(buildAggregation('yes-no', 2, 'week', [emptyCounter(2), emptyCounter(2)])).toEqual({
        schema: 'yes-no',
        period: 'week',
        values: [0, 0],
        count: 0,
        counts: [0, 0],
        summary: 0,
        points: [
          [0, 0],
          [0, 0],
        ],
      });
    });

    it('fills options a counter has not grown yet', () => {
      const onlyYes = addContribution(emptyCounter(0), { option: 0, sentiment: 1 }, 1);
      expect(buildAggregation('yes-no', 2, 'day', [onlyYes])).toMatchObject({ counts: [1, 0], points: [[1, 0]], summary: 1 });
    });
  });

  describe('reaction', () => {
    // github preset: +1, -1, laugh, confused, heart, hooray, rocket, eyes
    const optionCount = optionCountOf('reaction');

    it('counts each reaction and averages sentiment and intensity', () => {
      const points = [counterOf('reaction', ['+1', 'heart', 'confused']), emptyCounter(optionCount), counterOf('reaction', ['-1'])];
      expect(buildAggregation('reaction', optionCount, 'month', points)).toEqual({
        schema: 'reaction',
        period: 'month',
        values: [1, 1, 0, 1, 1, 0, 0, 0],
        count: 4,
        counts: [1, 1, 0, 1, 1, 0, 0, 0],
        // (1 + 1 - 0.5 - 1) / 4 and (0.5 + 0.9 + 0.5 + 0.5) / 4
        summary: 0.125,
        intensity: 0.6,
        points: [
          [[1, 0, 0, 1, 1, 0, 0, 0], 0.5, 0.633333],
          [[0, 0, 0, 0, 0, 0, 0, 0], 0, 0],
          [[0, 1, 0, 0, 0, 0, 0, 0], -1, 0.5],
        ],
      });
    });

    it('uses the options of a custom configuration in their order', () => {
      const config = {
        options: [
          { value: 'meh', sentiment: -0.2, intensity: 0.1 },
          { value: 'wow', sentiment: 0.9, intensity: 0.8 },
        ],
      };
      const aggregation = buildAggregation('reaction', 2, 'day', [counterOf('reaction', ['wow', 'wow', 'meh'], config)]);
      expect(aggregation).toMatchObject({ counts: [1, 2], values: [1, 2], summary: 0.533333, intensity: 0.566667 });
    });

    it('gives zeros without responses', () => {
      expect(buildAggregation('reaction', 3, 'year', [emptyCounter(3)])).toEqual({
        schema: 'reaction',
        period: 'year',
        values: [0, 0, 0],
        count: 0,
        counts: [0, 0, 0],
        summary: 0,
        intensity: 0,
        points: [[[0, 0, 0], 0, 0]],
      });
    });
  });

  describe('rating', () => {
    const optionCount = optionCountOf('rating'); // 1 to 5

    it('counts each rating and averages them', () => {
      const points = [counterOf('rating', [5, 4, 4]), emptyCounter(optionCount), counterOf('rating', ['1'])];
      expect(buildAggregation('rating', optionCount, 'rolling28d', points)).toEqual({
        schema: 'rating',
        period: 'rolling28d',
        values: [1, 0, 0, 2, 1],
        count: 4,
        summary: 3.5,
        points: [
          [3, 4.333333],
          [0, 0],
          [1, 1],
        ],
      });
    });

    it('averages ratings of fractional steps without float noise', () => {
      const config = { min: 0, max: 1, step: 0.1 };
      const counter = counterOf('rating', [0.1, 0.2, 0.7], config);
      const aggregation = buildAggregation('rating', optionCountOf('rating', config), 'day', [counter]);
      expect(aggregation).toMatchObject({ values: [0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0], summary: 0.333333, points: [[3, 0.333333]] });
    });

    it('gives zeros without responses', () => {
      expect(buildAggregation('rating', optionCount, 'week', [emptyCounter(optionCount)])).toEqual({
        schema: 'rating',
        period: 'week',
        values: [0, 0, 0, 0, 0],
        count: 0,
        summary: 0,
        points: [[0, 0]],
      });
    });
  });

  describe('tagged-message', () => {
    // default tags: idea (0.5), error (-1), other (0)
    const optionCount = optionCountOf('tagged-message');
    const tagged = (tag: string) => ({ tag, message: 'text' });

    it('counts each tag and averages sentiment', () => {
      const points = [counterOf('tagged-message', [tagged('idea'), tagged('idea'), tagged('other')]), counterOf('tagged-message', [{ tag: 'error' }])];
      expect(buildAggregation('tagged-message', optionCount, 'week', points)).toEqual({
        schema: 'tagged-message',
        period: 'week',
        values: [2, 1, 1],
        count: 4,
        counts: [2, 1, 1],
        summary: 0,
        points: [
          [[2, 0, 1], 0.333333],
          [[0, 1, 0], -1],
        ],
      });
    });

    it('gives zeros without responses', () => {
      expect(buildAggregation('tagged-message', optionCount, 'day', [emptyCounter(optionCount)])).toEqual({
        schema: 'tagged-message',
        period: 'day',
        values: [0, 0, 0],
        count: 0,
        counts: [0, 0, 0],
        summary: 0,
        points: [[[0, 0, 0], 0]],
      });
    });
  });

  describe('clamping', () => {
    // A removal replayed before its creation leaves a counter below zero.
    const removedFirst = (schema: Schema, value: unknown) => addContribution(emptyCounter(optionCountOf(schema)), contributionOf(schema, value), -1);

    it('shows no negative count or option in the period or its points', () => {
      const points = [removedFirst('yes-no', 'y'), removedFirst('yes-no', 'y'), counterOf('yes-no', ['n'])];
      expect(buildAggregation('yes-no', 2, 'week', points)).toEqual({
        schema: 'yes-no',
        period: 'week',
        values: [0, 1],
        count: 0,
        counts: [0, 1],
        summary: -1,
        points: [
          [0, 0],
          [0, 0],
          [0, 1],
        ],
      });
    });

    it('sums the stored counters before clamping, so a point below zero offsets another', () => {
      const points = [removedFirst('pulse', '+'), counterOf('pulse', ['+', '+'])];
      expect(buildAggregation('pulse', 1, 'day', points)).toEqual({ schema: 'pulse', period: 'day', values: [1], count: 1, points: [0, 2] });
    });

    it('gives a mean of 0 where the divisor is not positive', () => {
      const reaction = buildAggregation('reaction', 8, 'day', [removedFirst('reaction', 'heart')]);
      expect(reaction).toEqual({
        schema: 'reaction',
        period: 'day',
        values: [0, 0, 0, 0, 0, 0, 0, 0],
        count: 0,
        counts: [0, 0, 0, 0, 0, 0, 0, 0],
        summary: 0,
        intensity: 0,
        points: [[[0, 0, 0, 0, 0, 0, 0, 0], 0, 0]],
      });
      const rating = buildAggregation('rating', 5, 'day', [removedFirst('rating', 4)]);
      expect(rating).toEqual({ schema: 'rating', period: 'day', values: [0, 0, 0, 0, 0], count: 0, summary: 0, points: [[0, 0]] });
    });

    it('catches up once the creation arrives', () => {
      const converged = addContribution(removedFirst('rating', 4), contributionOf('rating', 4), 1);
      expect(buildAggregation('rating', 5, 'day', [converged])).toEqual({
        schema: 'rating',
        period: 'day',
        values: [0, 0, 0, 0, 0],
        count: 0,
        summary: 0,
        points: [[0, 0]],
      });
    });
  });

  it('returns values and counts as separate arrays', () => {
    const aggregation = buildAggregation('tagged-message', 3, 'day', [counterOf('tagged-message', [{ tag: 'idea' }])]);
    if (aggregation.schema !== 'tagged-message') throw new Error('wrong member');
    expect(aggregation.values).toEqual(aggregation.counts);
    expect(aggregation.values).not.toBe(aggregation.counts);
  });
});

describe('buildProjectAggregation', () => {
  it('counts responses of sets of every schema in the pulse shape', () => {
    const points = [sumCounters([counterOf('rating', [5, 3]), counterOf('yes-no', ['y'])], 1), emptyCounter(1), counterOf('reaction', ['rocket', 'eyes'])];
    expect(buildProjectAggregation('month', points)).toEqual({ schema: 'pulse', period: 'month', values: [5], count: 5, points: [3, 0, 2] });
  });

  it('gives zeros without responses', () => {
    expect(buildProjectAggregation('lifetime', [])).toEqual({ schema: 'pulse', period: 'lifetime', values: [0], count: 0, points: [] });
  });
});

describe('summaryOf', () => {
  it('reads the summary of the members that have one', () => {
    expect(summaryOf(buildAggregation('rating', 5, 'day', [counterOf('rating', [2, 5])]))).toBe(3.5);
    expect(summaryOf(buildAggregation('reaction', 8, 'day', [counterOf('reaction', ['-1'])]))).toBe(-1);
    expect(summaryOf(buildAggregation('tagged-message', 3, 'day', [counterOf('tagged-message', [{ tag: 'idea' }])]))).toBe(0.5);
    expect(summaryOf(buildAggregation('yes-no', 2, 'day', [emptyCounter(2)]))).toBe(0);
  });

  it('is undefined for the members without one', () => {
    expect(summaryOf(buildAggregation('pulse', 1, 'day', [counterOf('pulse', ['+'])]))).toBeUndefined();
    expect(summaryOf(buildAggregation('message', 1, 'day', [counterOf('message', ['hi'])]))).toBeUndefined();
    expect(summaryOf(buildProjectAggregation('day', []))).toBeUndefined();
  });
});
