/**
 * The token of a mail's unsubscribe link (docs/api.md, "Mail"): which member, account and
 * kind of mail it stops, signed with the service's mail token key (secrets/keys.ts) as a
 * JWT (jose, HS256 only), valid UNSUBSCRIBE_TOKEN_DAYS. It needs no sign-in, so it grants
 * nothing but turning that one kind of mail off for that one member; a token altered in
 * any way fails its signature.
 */
import { jwtVerify, SignJWT } from 'jose';
import { MAIL_KINDS, type MailKind } from '../domain/notifications';

/** At least a year: a digest read in the archive months later must still unsubscribe. */
export const UNSUBSCRIBE_TOKEN_DAYS = 400;
const ISSUER = 'feedback-service';
const AUDIENCE = 'unsubscribe';
/** A token is short; anything much longer is not one of ours and is not parsed. */
export const MAX_UNSUBSCRIBE_TOKEN_LENGTH = 600;

export interface UnsubscribeClaims {
  memberId: string;
  accountId: string;
  kind: MailKind;
}

export async function signUnsubscribeToken(claims: UnsubscribeClaims, key: Uint8Array, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ acc: claims.accountId, kind: claims.kind })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.memberId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + UNSUBSCRIBE_TOKEN_DAYS * 24 * 3600)
    .sign(key);
}

/** The claims of a valid token, or undefined: forged, altered, expired, of another key, or not a token at all. */
export async function verifyUnsubscribeToken(token: string, key: Uint8Array, now: Date): Promise<UnsubscribeClaims | undefined> {
  if (token.length > MAX_UNSUBSCRIBE_TOKEN_LENGTH) return undefined;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, currentDate: now });
    const kind = payload.kind as MailKind;
    if (typeof payload.sub !== 'string' || typeof payload.acc !== 'string' || !MAIL_KINDS.includes(kind)) return undefined;
    return { memberId: payload.sub, accountId: payload.acc, kind };
  } catch {
    return undefined;
  }
}
