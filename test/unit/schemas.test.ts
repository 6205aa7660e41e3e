import {
  DEFAULT_RATING,
  DEFAULT_TAGS,
  hasScore,
  MAX_OPTIONS,
  MESSAGE_MAX_LENGTH,
  normalizeValue,
  optionLabels,
  parseSchemaConfig,
  REACTION_PRESETS,
  SCHEMAS,
  scoreSample,
  type AnySchemaConfig,
  type Schema,
  type SchemaConfig,
} from '../../functions/domain/schemas';
import { RATING_LIMIT } from '../../functions/domain/schema-behaviours/rating';
import { addContribution, emptyCounter, type Counter } from '../../functions/domain/aggregation';

/** The complete config of a schema, as stored, from what a caller would give. */
function config<S extends Schema>(schema: S, input?: unknown): SchemaConfig[S] {
  const parsed = parseSchemaConfig(schema, input);
  if (!parsed.success) throw new Error(`invalid ${schema} config: ${parsed.error.message}`);
  return parsed.data as SchemaConfig[S];
}

const accepted = (schema: Schema, value: unknown, schemaConfig: AnySchemaConfig = config(schema)) => {
  const result = normalizeValue(schema, schemaConfig, value);
  if (!result.ok) throw new Error(`${JSON.stringify(value)} refused: ${result.reason}`);
  return result;
};
const refused = (schema: Schema, value: unknown, schemaConfig: AnySchemaConfig = config(schema)) => normalizeValue(schema, schemaConfig, value).ok === false;

describe('SCHEMAS', () => {
  it('lists the six schemas of the aggregation union', () => {
    expect(SCHEMAS).toEqual(['pulse', 'yes-no', 'reaction', 'rating', 'message', 'tagged-message']);
  });
});

describe('parseSchemaConfig', () => {
  it.each(['pulse', 'yes-no', 'message'] as const)('%s takes no configuration', (schema) => {
    for (const input of [undefined, null, {}]) expect(parseSchemaConfig(schema, input)).toEqual({ success: true, data: {} });
    expect(parseSchemaConfig(schema, { anything: 1 }).success).toBe(false);
    expect(parseSchemaConfig(schema, 'text').success).toBe(false);
    expect(parseSchemaConfig(schema, []).success).toBe(false);
  });

  describe('reaction', () => {
    it('defaults to the github preset, and completes a named preset', () => {
      expect(config('reaction')).toEqual({ options: REACTION_PRESETS.github });
      expect(config('reaction', null)).toEqual({ options: REACTION_PRESETS.github });
      for (const preset of ['github', 'facebook', 'feeling', 'evaluation'] as const) {
        expect(config('reaction', { preset })).toEqual({ options: REACTION_PRESETS[preset] });
      }
      expect(config('reaction', { preset: 'facebook' }).options.map((option) => option.value)).toEqual(['like', 'love', 'laugh', 'wow', 'sad', 'angry']);
    });

    it('returns copies: changing one parsed config leaves the presets and other configs alone', () => {
      const first = config('reaction');
      first.options[0].value = 'changed';
      first.options.push({ value: 'extra', sentiment: 0, intensity: 0 });
      expect(config('reaction').options).toHaveLength(8);
      expect(config('reaction').options[0].value).toBe('+1');
      expect(REACTION_PRESETS.github[0].value).toBe('+1');
    });

    it('takes custom options', () => {
      const options = [
        { value: 'up', sentiment: 1, intensity: 0.5 },
        { value: 'down', sentiment: -1, intensity: 1 },
      ];
      expect(config('reaction', { options })).toEqual({ options });
      const fifty = Array.from({ length: MAX_OPTIONS }, (_, index) => ({ value: `o${index}`, sentiment: 0, intensity: 0 }));
      expect(parseSchemaConfig('reaction', { options: fifty }).success).toBe(true);
    });

    it.each<[string, unknown]>([
      ['an unknown preset', { preset: 'twitter' }],
      ['both preset and options', { preset: 'github', options: [{ value: 'a', sentiment: 0, intensity: 0 }] }],
      ['no options', { options: [] }],
      ['more than 50 options', { options: Array.from({ length: MAX_OPTIONS + 1 }, (_, index) => ({ value: `o${index}`, sentiment: 0, intensity: 0 })) }],
      [
        'duplicate values',
        {
          options: [
            { value: 'a', sentiment: 0, intensity: 0 },
            { value: 'a', sentiment: 1, intensity: 1 },
          ],
        },
      ],
      ['a missing intensity', { options: [{ value: 'a', sentiment: 0 }] }],
      ['a sentiment above 1', { options: [{ value: 'a', sentiment: 1.5, intensity: 0 }] }],
      ['a sentiment below -1', { options: [{ value: 'a', sentiment: -2, intensity: 0 }] }],
      ['a negative intensity', { options: [{ value: 'a', sentiment: 0, intensity: -0.1 }] }],
      ['a sentiment DynamoDB cannot store (below 1e-130)', { options: [{ value: 'a', sentiment: 1e-131, intensity: 0 }] }],
      ['an intensity DynamoDB cannot store (below 1e-130)', { options: [{ value: 'a', sentiment: 0, intensity: 1e-200 }] }],
      ['an empty value', { options: [{ value: '', sentiment: 0, intensity: 0 }] }],
      ['a value over 30 characters', { options: [{ value: 'v'.repeat(31), sentiment: 0, intensity: 0 }] }],
      ['an unknown option field', { options: [{ value: 'a', sentiment: 0, intensity: 0, emoji: '👍' }] }],
      ['an unknown field', { preset: 'github', colour: 'red' }],
    ])('refuses %s', (_, input) => {
      expect(parseSchemaConfig('reaction', input).success).toBe(false);
    });
  });

  describe('tagged-message', () => {
    it('defaults to the feedback preset tags, as a copy', () => {
      expect(config('tagged-message')).toEqual({ tags: DEFAULT_TAGS });
      expect(DEFAULT_TAGS.map((tag) => tag.value)).toEqual(['idea', 'error', 'other']);
      config('tagged-message').tags[0].value = 'changed';
      expect(config('tagged-message').tags[0].value).toBe('idea');
      expect(DEFAULT_TAGS[0].value).toBe('idea');
    });

    it('takes custom tags and refuses malformed ones', () => {
      const tags = [{ value: 'praise', sentiment: 1 }];
      expect(config('tagged-message', { tags })).toEqual({ tags });
      for (const input of [
        { tags: [] },
        {
          tags: [
            { value: 'a', sentiment: 0 },
            { value: 'a', sentiment: 1 },
          ],
        },
        { tags: [{ value: 'a' }] },
        { tags: [{ value: 'a', sentiment: 0, intensity: 1 }] },
        { tags: [{ value: 'a', sentiment: 2 }] },
        { tags: [{ value: 'a', sentiment: 1e-131 }] },
        { tags: Array.from({ length: MAX_OPTIONS + 1 }, (_, index) => ({ value: `t${index}`, sentiment: 0 })) },
        { preset: 'feedback' },
      ]) {
        expect({ input, success: parseSchemaConfig('tagged-message', input).success }).toEqual({ input, success: false });
      }
    });
  });

  describe('rating', () => {
    it('completes missing bounds with 1..5 in steps of 1', () => {
      expect(DEFAULT_RATING).toEqual({ min: 1, max: 5, step: 1 });
      expect(config('rating')).toEqual({ min: 1, max: 5, step: 1 });
      expect(config('rating', { max: 10 })).toEqual({ min: 1, max: 10, step: 1 });
      expect(config('rating', { min: 0, max: 10, step: 0.5 })).toEqual({ min: 0, max: 10, step: 0.5 });
      expect(config('rating', { min: -2, max: 2, step: 0.25 })).toEqual({ min: -2, max: 2, step: 0.25 });
      // (0.7 - 0.1) / 0.2 is 2.9999999999999996 in floating point: still a whole number of steps.
      expect(config('rating', { min: 0.1, max: 0.7, step: 0.2 })).toEqual({ min: 0.1, max: 0.7, step: 0.2 });
    });

    it(`takes bounds up to ${RATING_LIMIT} from 0`, () => {
      expect(config('rating', { min: -RATING_LIMIT, max: RATING_LIMIT, step: 2 * RATING_LIMIT })).toEqual({
        min: -RATING_LIMIT,
        max: RATING_LIMIT,
        step: 2 * RATING_LIMIT,
      });
    });

    it('allows at most 50 values', () => {
      expect(parseSchemaConfig('rating', { min: 0, max: 49 }).success).toBe(true);
      expect(parseSchemaConfig('rating', { min: 0, max: 50 }).success).toBe(false);
      expect(parseSchemaConfig('rating', { min: 0, max: 4.9, step: 0.1 }).success).toBe(true);
      expect(parseSchemaConfig('rating', { min: 0, max: 5, step: 0.1 }).success).toBe(false);
    });

    it.each<[string, unknown]>([
      ['max equal to min', { min: 3, max: 3 }],
      ['max below min', { min: 5, max: 1 }],
      ['a min that reaches the default max', { min: 5 }],
      ['a step of 0', { step: 0 }],
      ['a negative step', { step: -1 }],
      ['a range that is not a whole number of steps', { min: 1, max: 5, step: 3 }],
      ['a step larger than the range', { min: 0, max: 1, step: 2 }],
      ['a non-number bound', { min: '1' }],
      [`a min beyond -${RATING_LIMIT}`, { min: -RATING_LIMIT - 1, max: -RATING_LIMIT + 1, step: 2 }],
      [`a max beyond ${RATING_LIMIT}`, { min: RATING_LIMIT - 1, max: RATING_LIMIT + 1, step: 2 }],
      ['bounds beyond 2^53-1', { min: 1e300, max: 2e300, step: 1e300 }],
      ['a step far above the range (0 steps once rounded)', { step: 1e300 }],
      ['a range of 0 steps once rounded', { min: 0, max: 1e-10, step: 1 }],
      ['a bound DynamoDB cannot store (below 1e-130)', { min: 1e-131, max: 1, step: 1 - 1e-131 }],
      ['a step DynamoDB cannot store (below 1e-130)', { min: 0, max: 1e-131, step: 1e-131 }],
      ['an unknown field', { min: 1, max: 5, labels: ['bad', 'good'] }],
      ['a non-object', 5],
    ])('refuses %s', (_, input) => {
      expect(parseSchemaConfig('rating', input).success).toBe(false);
    });
  });
});

describe('optionLabels', () => {
  it('names the counted options of each schema in order', () => {
    expect(optionLabels('pulse', {})).toEqual(['count']);
    expect(optionLabels('message', {})).toEqual(['count']);
    expect(optionLabels('yes-no', {})).toEqual(['yes', 'no']);
    expect(optionLabels('reaction', config('reaction', { preset: 'feeling' }))).toEqual(['happy', 'neutral', 'sad']);
    expect(optionLabels('tagged-message', config('tagged-message'))).toEqual(['idea', 'error', 'other']);
    expect(optionLabels('rating', config('rating'))).toEqual(['1', '2', '3', '4', '5']);
    expect(optionLabels('rating', config('rating', { min: 0, max: 0.3, step: 0.1 }))).toEqual(['0', '0.1', '0.2', '0.3']);
    const halves = optionLabels('rating', config('rating', { min: 0, max: 10, step: 0.5 }));
    expect([halves.length, halves[0], halves[1], halves[20]]).toEqual([21, '0', '0.5', '10']);
  });

  it.each([
    { min: 1, max: 5, step: 1 },
    { min: 0, max: 10, step: 0.5 },
    { min: 0, max: 1, step: 0.1 },
    { min: -2, max: 2, step: 0.25 },
    { min: 0.1, max: 0.7, step: 0.2 },
  ])('agrees with normalizeValue on the option of every rating label of %j', (input) => {
    const rating = config('rating', input);
    const labels = optionLabels('rating', rating);
    expect(labels.map((label) => accepted('rating', Number(label), rating).contribution.option)).toEqual(labels.map((_, index) => index));
  });
});

describe('normalizeValue', () => {
  it('pulse: only "+"', () => {
    expect(accepted('pulse', '+')).toEqual({ ok: true, value: '+', contribution: { option: 0 } });
    for (const value of ['-', '', ' +', '+ ', '++', 1, true, null, undefined, {}, ['+']]) {
      expect({ value, refused: refused('pulse', value) }).toEqual({ value, refused: true });
    }
  });

  it('yes-no: every spelling of yes and no, stored as "y" and "n"', () => {
    for (const value of ['y', 'Y', 'yes', 'YES', 'Yes', '+1', '1', 'true', 'TRUE', 1, true]) {
      expect({ value, result: normalizeValue('yes-no', {}, value) }).toEqual({
        value,
        result: { ok: true, value: 'y', contribution: { option: 0, sentiment: 1 } },
      });
    }
    for (const value of ['n', 'N', 'no', 'NO', '-1', 'false', 'False', -1, false]) {
      expect({ value, result: normalizeValue('yes-no', {}, value) }).toEqual({
        value,
        result: { ok: true, value: 'n', contribution: { option: 1, sentiment: -1 } },
      });
    }
    for (const value of ['maybe', '', ' y', 'y ', '0', 0, 2, -2, '+', '-', 'on', 'off', null, undefined, {}, ['y']]) {
      expect({ value, refused: refused('yes-no', value) }).toEqual({ value, refused: true });
    }
  });

  it('rating: numbers on the scale, numeric strings read as numbers', () => {
    expect(accepted('rating', 1)).toEqual({ ok: true, value: 1, contribution: { option: 0, rating: 1 } });
    expect(accepted('rating', 5)).toEqual({ ok: true, value: 5, contribution: { option: 4, rating: 5 } });
    expect(accepted('rating', '4')).toEqual({ ok: true, value: 4, contribution: { option: 3, rating: 4 } });
    for (const value of [0, 6, 0.999, 5.001, 2.5, -1, '', ' ', 'four', '4 stars', NaN, Infinity, -Infinity, true, null, undefined, {}, [3]]) {
      expect({ value, refused: refused('rating', value) }).toEqual({ value, refused: true });
    }
  });

  it('rating: a string is read only when it is a decimal number, nothing around it', () => {
    for (const value of ['3', '3.0', '03', '3e0', '30e-1', '0.3E1']) expect({ value, result: accepted('rating', value).value }).toEqual({ value, result: 3 });
    expect(accepted('rating', '-1', config('rating', { min: -2, max: 2 })).value).toBe(-1);
    for (const value of ['3 ', ' 3', '\t3', '3\n', '0x3', '0o3', '0b11', '+3', '3.', '.3e1', '3e', '1_000', '３', 'Infinity', '1e400']) {
      expect({ value, refused: refused('rating', value) }).toEqual({ value, refused: true });
    }
  });

  it('rating: refuses a number DynamoDB cannot store, even within the tolerance of a step', () => {
    const around0 = config('rating', { min: -1, max: 1 });
    expect(accepted('rating', 0, around0).value).toBe(0);
    // Within the tolerance of the step 0: stored and counted as 0.
    expect(accepted('rating', 1e-130, around0).value).toBe(0);
    for (const value of [1e-131, -1e-200, Number.MIN_VALUE, '1e-200'])
      expect({ value, refused: refused('rating', value, around0) }).toEqual({ value, refused: true });
  });

  it('rating: within 1e-9 of a bound but off the scale is refused, naming the value', () => {
    for (const value of [5.0000000009, 5 + 1e-12, '5.0000000009', 0.9999999991, 1 - 1e-12]) {
      const result = normalizeValue('rating', config('rating'), value);
      expect({ value, result }).toEqual({
        value,
        result: { ok: false, reason: `${JSON.stringify(value)} is not on this set's scale: a rating is from 1 to 5 in steps of 1` },
      });
    }
    const tenths = config('rating', { min: 0, max: 1, step: 0.1 });
    expect(refused('rating', 1.0000000001, tenths)).toBe(true);
    expect(refused('rating', -1e-10, tenths)).toBe(true);
  });

  it('rating: within 1e-9 of a step is stored and counted as that step; farther off is refused', () => {
    expect(accepted('rating', 4.0000000009)).toEqual({ ok: true, value: 4, contribution: { option: 3, rating: 4 } });
    expect(accepted('rating', 3.9999999991)).toEqual({ ok: true, value: 4, contribution: { option: 3, rating: 4 } });
    expect(accepted('rating', 4.9999999995)).toEqual({ ok: true, value: 5, contribution: { option: 4, rating: 5 } });
    expect(accepted('rating', '2.0000000001').value).toBe(2);
    for (const value of [4.000000002, 3.999999998, 4.5]) {
      expect({ value, reason: normalizeValue('rating', config('rating'), value) }).toEqual({
        value,
        reason: { ok: false, reason: `${value} is not on this set's scale: a rating is from 1 to 5 in steps of 1` },
      });
    }
    const tenths = config('rating', { min: 0, max: 1, step: 0.1 });
    // The binary sum 0.30000000000000004 is stored as the step's own value, 0.3.
    expect(accepted('rating', 0.1 + 0.2, tenths)).toEqual({ ok: true, value: 0.3, contribution: { option: 3, rating: 0.3 } });
    expect(accepted('rating', 0.7000000004, tenths).value).toBe(0.7);
  });

  it('rating: a refusal names the value, a long one cut', () => {
    expect(normalizeValue('rating', config('rating'), 'four')).toEqual({
      ok: false,
      reason: '"four" is not a rating: a rating is a number, or a decimal number as a string',
    });
    const long = normalizeValue('rating', config('rating'), 'x'.repeat(100));
    expect(long.ok === false && long.reason).toBe(`"${'x'.repeat(39)}… is not a rating: a rating is a number, or a decimal number as a string`);
  });

  it('rating: custom scales, including fractional steps and floating-point sums', () => {
    const halves = config('rating', { min: 0, max: 10, step: 0.5 });
    expect(accepted('rating', 0, halves).contribution).toEqual({ option: 0, rating: 0 });
    expect(accepted('rating', 7.5, halves).contribution).toEqual({ option: 15, rating: 7.5 });
    expect(accepted('rating', 10, halves).contribution).toEqual({ option: 20, rating: 10 });
    for (const value of [-0.5, 10.5, 7.25, 0.1]) expect({ value, refused: refused('rating', value, halves) }).toEqual({ value, refused: true });

    const tenths = config('rating', { min: 0, max: 1, step: 0.1 });
    expect(accepted('rating', 0.3, tenths).contribution.option).toBe(3);
    expect(accepted('rating', 0.1 + 0.2, tenths).contribution.option).toBe(3);
    expect(accepted('rating', 0.7, tenths).contribution.option).toBe(7);
    expect(refused('rating', 0.05, tenths)).toBe(true);
    expect(refused('rating', 1.1, tenths)).toBe(true);

    const negative = config('rating', { min: -2, max: 2, step: 0.25 });
    expect(accepted('rating', -2, negative).contribution.option).toBe(0);
    expect(accepted('rating', -0.75, negative).contribution.option).toBe(5);
    expect(refused('rating', -2.25, negative)).toBe(true);
  });

  it('reaction: the values of the set options, with their sentiment and intensity', () => {
    const github = config('reaction');
    expect(accepted('reaction', 'heart', github)).toEqual({ ok: true, value: 'heart', contribution: { option: 4, sentiment: 1, intensity: 0.9 } });
    expect(accepted('reaction', '-1', github).contribution).toEqual({ option: 1, sentiment: -1, intensity: 0.5 });
    for (const value of ['like', 'HEART', 'heart ', '', '+', 1, -1, null, undefined, { value: 'heart' }, ['heart']]) {
      expect({ value, refused: refused('reaction', value, github) }).toEqual({ value, refused: true });
    }
    const facebook = config('reaction', { preset: 'facebook' });
    expect(accepted('reaction', 'angry', facebook).contribution).toEqual({ option: 5, sentiment: -1, intensity: 1 });
    expect(refused('reaction', '+1', facebook)).toBe(true);
    const custom = config('reaction', { options: [{ value: '1', sentiment: 0, intensity: 0 }] });
    // Option values are strings: the number 1 is not the option "1".
    expect(accepted('reaction', '1', custom).contribution.option).toBe(0);
    expect(refused('reaction', 1, custom)).toBe(true);
  });

  it('message: non-empty text of at most 4000 UTF-16 code units, stored verbatim', () => {
    expect(MESSAGE_MAX_LENGTH).toBe(4000);
    expect(accepted('message', 'x'.repeat(4000))).toEqual({ ok: true, value: 'x'.repeat(4000), contribution: { option: 0 } });
    expect(accepted('message', '  spaced out\n').value).toBe('  spaced out\n');
    expect(accepted('message', '😀'.repeat(2000)).value).toHaveLength(4000);
    for (const value of ['x'.repeat(4001), '😀'.repeat(2001), '', ' ', '\n\t \r', '\u3000', 42, true, null, undefined, { message: 'hi' }, ['hi']]) {
      expect({ value: typeof value === 'string' ? value.slice(0, 10) : value, refused: refused('message', value) }).toEqual({
        value: typeof value === 'string' ? value.slice(0, 10) : value,
        refused: true,
      });
    }
  });

  it('tagged-message: {tag, message?} with one of the set tags', () => {
    const tags = config('tagged-message');
    expect(accepted('tagged-message', { tag: 'idea' }, tags)).toEqual({ ok: true, value: { tag: 'idea' }, contribution: { option: 0, sentiment: 0.5 } });
    expect(accepted('tagged-message', { tag: 'error', message: 'Typo' }, tags)).toEqual({
      ok: true,
      value: { tag: 'error', message: 'Typo' },
      contribution: { option: 1, sentiment: -1 },
    });
    expect(accepted('tagged-message', { tag: 'other', message: null }, tags).value).toEqual({ tag: 'other' });
    expect(accepted('tagged-message', { tag: 'other', message: undefined }, tags).value).toEqual({ tag: 'other' });
    expect(accepted('tagged-message', { message: 'x'.repeat(4000), tag: 'idea' }, tags).value).toEqual({ tag: 'idea', message: 'x'.repeat(4000) });
    for (const value of [
      { tag: 'bug' },
      { tag: 'Idea' },
      { tag: 1 },
      {},
      { message: 'no tag' },
      { tag: 'idea', message: '' },
      { tag: 'idea', message: '  ' },
      { tag: 'idea', message: 5 },
      { tag: 'idea', message: 'x'.repeat(4001) },
      { tag: 'idea', extra: true },
      { tag: 'idea', message: 'hi', $user: 'a@b.c' },
      'idea',
      ['idea'],
      null,
      undefined,
    ]) {
      expect({ value, refused: refused('tagged-message', value, tags) }).toEqual({ value, refused: true });
    }
  });

  it('tagged-message: explains unknown fields and unknown tags', () => {
    const tags = config('tagged-message');
    expect(normalizeValue('tagged-message', tags, { tag: 'idea', colour: 'red', size: 1 })).toEqual({ ok: false, reason: 'unknown fields: colour, size' });
    expect(normalizeValue('tagged-message', tags, { tag: 'bug' })).toEqual({ ok: false, reason: 'tag must be one of "idea", "error", "other"' });
  });

  it('does not change the value it was given', () => {
    const value = { tag: 'idea', message: 'keep me' };
    const result = accepted('tagged-message', value, config('tagged-message'));
    expect(value).toEqual({ tag: 'idea', message: 'keep me' });
    expect(result.value).not.toBe(value);
  });
});

describe('scoreSample', () => {
  /** The counter of `values`, each counted as a response would be. */
  function counted<S extends Schema>(schema: S, schemaConfig: SchemaConfig[S], values: unknown[]): Counter {
    return values.reduce<Counter>((counter, value) => addContribution(counter, accepted(schema, value, schemaConfig).contribution, 1), emptyCounter(0));
  }

  it('is the share of yes for yes-no', () => {
    const total = counted('yes-no', {}, ['y', 'y', 'n', 'yes', 'no', '+1']);
    expect(scoreSample('yes-no', {}, total)).toEqual({ kind: 'proportion', successes: 4, n: 6 });
  });

  it("is the mean rating on the set's scale, with the sum of squares of the ratings", () => {
    const scale = config('rating', { min: 0, max: 10, step: 2 });
    const total = counted('rating', scale, [2, 10, 10, 4]);
    expect(scoreSample('rating', scale, total)).toEqual({ kind: 'mean', n: 4, sum: 26, sumOfSquares: 4 + 100 + 100 + 16, min: 0, max: 10 });
  });

  it('is the mean sentiment of the options for reaction and tagged-message, on [-1, 1]', () => {
    const reactions = config('reaction', { preset: 'facebook' }); // like 1, wow 0.5, sad -0.5
    expect(scoreSample('reaction', reactions, counted('reaction', reactions, ['like', 'wow', 'sad', 'sad']))).toEqual({
      kind: 'mean',
      n: 4,
      sum: 0.5,
      sumOfSquares: 1 + 0.25 + 0.25 + 0.25,
      min: -1,
      max: 1,
    });
    const tags = config('tagged-message'); // idea 0.5, error -1, other 0
    expect(
      scoreSample('tagged-message', tags, counted('tagged-message', tags, [{ tag: 'idea' }, { tag: 'error', message: 'broken' }, { tag: 'other' }])),
    ).toEqual({
      kind: 'mean',
      n: 3,
      sum: -0.5,
      sumOfSquares: 1.25,
      min: -1,
      max: 1,
    });
  });

  it('is absent for pulse and message, which have no score', () => {
    expect(SCHEMAS.filter((schema) => !hasScore(schema))).toEqual(['pulse', 'message']);
    expect(scoreSample('pulse', {}, counted('pulse', {}, ['+']))).toBeUndefined();
    expect(scoreSample('message', {}, counted('message', {}, ['hello']))).toBeUndefined();
  });
});
