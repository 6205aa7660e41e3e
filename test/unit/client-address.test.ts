import { callerAddress, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../functions/api/client-address';

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
