import { messageOf, normalizedMessage, spamReason } from '../../functions/domain/spam';

/** The spam check of messages (functions/domain/spam.ts). */
describe('spamReason', () => {
  test.each([
    'The checkout button does nothing on my phone.',
    'Great article, thanks!',
    'See https://example.com/docs for the page I meant, the second table is wrong.',
    'Wow!!!!! Love it',
    'no no no, the price is wrong',
    '',
  ])('lets feedback through: %s', (message) => {
    expect(spamReason(message, 'item', [])).toBeUndefined();
  });

  test('more than two links', () => {
    expect(spamReason('cheap www.a-shop.com and http://b.example.net plus c-deals.org', 'item', [])).toBe('spam-links');
    expect(spamReason('mail me at x@example.com, also see example.org and example.net', 'item', [])).toBe('spam-links');
  });

  test('a message that is mostly a link', () => {
    expect(spamReason('visit https://example.com/a/very/long/path/to/some/landing-page?ref=1', 'item', [])).toBe('spam-link-density');
    // A bare link alone is short: someone pointing at a page.
    expect(spamReason('https://example.com/a', 'item', [])).toBeUndefined();
  });

  test('repeated text', () => {
    expect(spamReason(`great${'!'.repeat(20)}`, 'item', [])).toBe('spam-repeated-text');
    expect(spamReason('buy buy buy buy buy buy now', 'item', [])).toBe('spam-repeated-text');
    // Repeated words among many others are prose.
    expect(spamReason('the page and the table and the list and the menu and the footer and the header are all fine', 'item', [])).toBeUndefined();
  });

  test.each([
    '<a href="https://x.example">click</a>',
    '[url=https://x.example]click[/url]',
    'nice [here](https://x.example)',
    'Best CASINO bonus today',
    'We offer SEO services for your site',
    'Contact on WhatsApp +4412345678',
  ])('known shapes: %s', (message) => {
    expect(spamReason(message, 'item', [])).toBe('spam-known-shape');
  });

  test('the same message on three other items of the set', () => {
    const message = 'Amazing content, check my profile for more!';
    const seen = (items: string[]) => items.map((contentItemId) => ({ contentItemId, message: message.toUpperCase() }));
    expect(spamReason(message, 'item', seen(['a', 'b', 'c']))).toBe('spam-same-message-across-items');
    // Twice on one other item, or on the item itself, is not across items.
    expect(spamReason(message, 'item', seen(['a', 'a', 'item', 'b']))).toBeUndefined();
    // Short messages repeat innocently.
    expect(
      spamReason('Thanks, great!', 'item', [
        { contentItemId: 'a', message: 'thanks great' },
        { contentItemId: 'b', message: 'Thanks great' },
        { contentItemId: 'c', message: 'thanks, great' },
      ]),
    ).toBeUndefined();
  });
});

describe('helpers', () => {
  test('normalizedMessage ignores case, punctuation and spacing', () => {
    expect(normalizedMessage('  Hello,   WORLD!! ')).toBe('hello world');
  });

  test('messageOf reads messages and tagged messages, nothing else', () => {
    expect(messageOf('message', 'hi')).toBe('hi');
    expect(messageOf('tagged-message', { tag: 'idea', message: 'hi' })).toBe('hi');
    expect(messageOf('tagged-message', { tag: 'idea' })).toBeUndefined();
    expect(messageOf('yes-no', 'yes')).toBeUndefined();
    expect(messageOf('unknown', 'x')).toBeUndefined();
  });
});
