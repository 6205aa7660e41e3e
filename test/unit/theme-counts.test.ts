import {
  dayCounts,
  EXAMPLES_PER_DAY,
  phraseKeyNamed,
  PHRASES_PER_DAY,
  standoutPhraseCounts,
  sumDays,
  type ThemedMessage,
} from '../../functions/domain/theme-counts';
let serial = 0;
const message = (text: string, theme: string | null, day = '2026-06-01', item = 'item-a', tag?: string): ThemedMessage => {
  serial += 1;
  return {
    responseId: `r${String(serial).padStart(4, '0')}`,
    contentItemId: item,
    createdAt: `${day}T10:00:${String(serial % 60).padStart(2, '0')}.000Z`,
    text,
    theme,
    ...(tag ? { tag } : {}),
  };
};

describe('dayCounts', () => {
  test('counts messages per theme, the newest examples, items and phrases with their near-duplicate groups', () => {
    const messages = [
      message('I was charged twice', 'billing', '2026-06-01', 'a'),
      message('charged twice for my order', 'billing', '2026-06-01', 'b'),
      message('Charged twice!!', 'billing', '2026-06-01', 'b'),
      message('I was charged twice', 'billing', '2026-06-01', 'b'),
      message('where is my parcel', 'delivery', '2026-06-01', 'a'),
      message('ok', null, '2026-06-01', 'a'),
    ];
    const day = dayCounts(messages, true);
    expect(day.n).toBe(6);
    expect(day.t).toEqual({ billing: 4, delivery: 1 });
    expect(day.x.billing).toHaveLength(EXAMPLES_PER_DAY);
    expect(day.x.billing[0]).toBe(messages[3].responseId);
    expect(day.i?.billing).toEqual([
      ['b', 3],
      ['a', 1],
    ]);
    // Four messages hold "charged twice"; the two equal ones are one near-duplicate group.
    expect(day.p['charg twice']).toEqual([4, 3, 'charged twice']);
  });

  test('keeps at most PHRASES_PER_DAY phrases, those of the most messages', () => {
    const messages = Array.from({ length: 80 }, (_, index) => message(`word${index} alpha${index} beta${index} gamma`, null));
    const day = dayCounts(messages, false);
    expect(Object.keys(day.p)).toHaveLength(PHRASES_PER_DAY);
    expect(day.p.gamma?.[0]).toBe(80);
    expect(day.i).toBeUndefined();
  });
});

describe('sumDays and standout phrases', () => {
  const before = dayCounts(
    Array.from({ length: 30 }, (_, index) => message(index % 3 === 0 ? `slow delivery ${index}` : `the parcel came late ${index}`, 'delivery', '2026-05-20')),
    true,
  );
  const week = dayCounts(
    [
      ...['charged twice', 'I got charged twice', 'double charged, charged twice', 'charged twice again', 'why charged twice?'].map((text) =>
        message(text, 'billing', '2026-06-01'),
      ),
      ...Array.from({ length: 5 }, (_, index) => message(`the parcel came late ${index}`, 'delivery', '2026-06-01')),
    ],
    true,
  );

  test('sums themes and phrases, keeps every example newest day first', () => {
    const sum = sumDays([week, before]);
    expect(sum.n).toBe(40);
    expect(sum.t).toEqual({ billing: 5, delivery: 35 });
    expect(sum.x.delivery).toEqual([...week.x.delivery, ...before.x.delivery]);
  });

  test('a phrase that rises against the history stands out, with its change against the previous period', () => {
    const phrases = standoutPhraseCounts(week, before, before);
    expect(phrases[0]).toMatchObject({ key: 'charg twice', text: 'charged twice', count: 5, messages: 5, new: true, rising: true });
    expect(phrases[0].change?.method).toBe('newcombe');
    // "charged" gives way to "charged twice", which holds all of its messages.
    expect(phrases.some((phrase) => phrase.key === 'charg')).toBe(false);
    // A phrase no more frequent than in its history does not stand out.
    expect(phrases.some((phrase) => phrase.key === 'parcel came late')).toBe(false);
    expect(phraseKeyNamed([week], 'Charged  Twice')).toBe('charg twice');
  });

  test('a phrase is found by either spelling, British or American', () => {
    const day = dayCounts(
      ['the colour is wrong', 'wrong colour again', 'my order was cancelled', 'weird behaviour on save'].map((text) => message(text, null)),
      false,
    );
    for (const [british, american] of [
      ['colour', 'color'],
      ['cancelled', 'canceled'],
      ['behaviour', 'behavior'],
      ['wrong colour', 'wrong color'],
    ]) {
      const key = phraseKeyNamed([day], british);
      expect(key).toBeDefined();
      expect(phraseKeyNamed([day], american)).toBe(key);
    }
    expect(day.p[phraseKeyNamed([day], 'color')!]).toEqual([2, 2, 'colour']);
    expect(phraseKeyNamed([day], 'organized')).toBeUndefined();
  });
});
