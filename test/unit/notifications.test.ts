import { defaultPreferences, effectivePreferences, mailKindName, unsubscribed, wantsMail } from '../../functions/domain/notifications';
import { suppressionOfSesEvent } from '../../functions/domain/mail-suppression';

describe('notification preferences', () => {
  test('defaults by role: owners and admins get the digest and immediate alerts, viewers nothing', () => {
    expect(defaultPreferences('owner')).toEqual({ weeklyDigest: true, alerts: 'immediately' });
    expect(defaultPreferences('admin')).toEqual({ weeklyDigest: true, alerts: 'immediately' });
    expect(defaultPreferences('viewer')).toEqual({ weeklyDigest: false, alerts: 'off' });
  });

  test("a member's choices override the role's defaults field by field; a promotion changes only what they did not choose", () => {
    expect(effectivePreferences('viewer', { alerts: 'daily' })).toEqual({ weeklyDigest: false, alerts: 'daily' });
    expect(effectivePreferences('admin', { alerts: 'daily' })).toEqual({ weeklyDigest: true, alerts: 'daily' });
    expect(effectivePreferences('owner', { weeklyDigest: false, projects: ['p'] })).toEqual({ weeklyDigest: false, alerts: 'immediately', projects: ['p'] });
  });

  test('wantsMail: the kind, the mode and the project filter all count', () => {
    const all = effectivePreferences('owner', undefined);
    expect(wantsMail(all, 'p', 'digest')).toBe(true);
    expect(wantsMail(all, 'p', 'immediately')).toBe(true);
    expect(wantsMail(all, 'p', 'daily')).toBe(false);
    const some = effectivePreferences('viewer', { weeklyDigest: true, alerts: 'daily', projects: ['a'] });
    expect(wantsMail(some, 'a', 'digest')).toBe(true);
    expect(wantsMail(some, 'b', 'digest')).toBe(false);
    expect(wantsMail(some, 'a', 'daily')).toBe(true);
    expect(wantsMail(some, 'a', 'immediately')).toBe(false);
    expect(wantsMail(some, 'a', 'off')).toBe(false);
  });

  test('an unsubscribe turns off its kind only and keeps the rest', () => {
    expect(unsubscribed({ alerts: 'daily', projects: ['a'] }, 'digest')).toEqual({ weeklyDigest: false, alerts: 'daily', projects: ['a'] });
    expect(unsubscribed(undefined, 'alerts')).toEqual({ alerts: 'off' });
    expect(mailKindName('digest', 'Acme docs')).toBe('the weekly digest for Acme docs');
  });
});

describe('SES bounce and complaint events', () => {
  const received = new Date('2026-03-02T10:00:00Z');
  const mail = { tags: { account: ['acc1'], kind: ['digest'] }, destination: ['ada@example.com'] };

  test('a permanent bounce suppresses its recipients for the tagged account', () => {
    const event = {
      eventType: 'Bounce',
      mail,
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [{ emailAddress: 'Ada@Example.com', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
        timestamp: '2026-03-02T09:59:58.123Z',
      },
    };
    expect(suppressionOfSesEvent(event, received)).toEqual({
      accountId: 'acc1',
      addresses: ['Ada@Example.com'],
      reason: 'bounce',
      detail: 'General: smtp; 550 5.1.1 user unknown',
      at: '2026-03-02T09:59:58.123Z',
    });
  });

  test('a complaint suppresses; a transient bounce, a delivery, or a mail without the account tag do not', () => {
    expect(
      suppressionOfSesEvent(
        { eventType: 'Complaint', mail, complaint: { complainedRecipients: [{ emailAddress: 'b@example.com' }], complaintFeedbackType: 'abuse' } },
        received,
      ),
    ).toEqual({
      accountId: 'acc1',
      addresses: ['b@example.com'],
      reason: 'complaint',
      detail: 'abuse',
      at: received.toISOString(),
    });
    expect(
      suppressionOfSesEvent(
        { eventType: 'Bounce', mail, bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: 'a@example.com' }] } },
        received,
      ),
    ).toBeUndefined();
    expect(suppressionOfSesEvent({ eventType: 'Delivery', mail }, received)).toBeUndefined();
    expect(
      suppressionOfSesEvent({ eventType: 'Complaint', mail: { tags: {} }, complaint: { complainedRecipients: [{ emailAddress: 'b@example.com' }] } }, received),
    ).toBeUndefined();
    expect(suppressionOfSesEvent('not json', received)).toBeUndefined();
    expect(suppressionOfSesEvent({ eventType: 'Bounce', mail, bounce: { bounceType: 'Permanent', bouncedRecipients: [] } }, received)).toBeUndefined();
  });
});
