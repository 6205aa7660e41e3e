import { callerAddress, callerVisitorKey, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, VISITOR_KEY_HEADER } from '../../functions/api/client-address';

/** The address an audit entry records (functions/api/client-address.ts). */
describe('callerAddress', () => {
  const cloudFront = '130.176.1.2';

  test('through the distribution (its origin header present): the viewer address the edge function wrote', () => {
    expect(callerAddress({ [ORIGIN_VERIFY_HEADER]: 'secret', [VIEWER_ADDRESS_HEADER]: '198.51.100.7' }, cloudFront)).toBe('198.51.100.7');
    expect(callerAddress({ [ORIGIN_VERIFY_HEADER]: 'secret', [VIEWER_ADDRESS_HEADER]: '2001:db8::7' }, cloudFront)).toBe('2001:db8::7');
  });

  test('without the origin header, or with a header that is no address: the connection address', () => {
    expect(callerAddress({ [VIEWER_ADDRESS_HEADER]: '198.51.100.7' }, cloudFront)).toBe(cloudFront);
    expect(callerAddress({ [ORIGIN_VERIFY_HEADER]: 'secret', [VIEWER_ADDRESS_HEADER]: 'me, honest' }, cloudFront)).toBe(cloudFront);
    expect(callerAddress({ [ORIGIN_VERIFY_HEADER]: 'secret' }, cloudFront)).toBe(cloudFront);
    expect(callerAddress({}, undefined)).toBeUndefined();
  });
});

/** Whom onePerVisitor recognises (functions/api/client-address.ts). */
describe('callerVisitorKey', () => {
  test("through the distribution: the edge function's visitor key (an IPv6 viewer by the /64)", () => {
    expect(callerVisitorKey({ [ORIGIN_VERIFY_HEADER]: 'secret', [VISITOR_KEY_HEADER]: '2001:db8:1:2::/64' }, '130.176.1.2')).toBe('2001:db8:1:2::/64');
  });

  test('without the origin header (the local server) or the key: the address as given', () => {
    expect(callerVisitorKey({ [VISITOR_KEY_HEADER]: '203.0.113.9' }, '127.0.0.1')).toBe('127.0.0.1');
    expect(callerVisitorKey({ [ORIGIN_VERIFY_HEADER]: 'secret' }, '198.51.100.7')).toBe('198.51.100.7');
    expect(callerVisitorKey({}, undefined)).toBeUndefined();
  });
});
