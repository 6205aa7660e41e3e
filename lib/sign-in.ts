import { Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
  VerificationEmailStyle,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { acknowledgeNag } from './nag';

/** The scopes the console asks for (config.json's `oidc.scopes`) and the app client allows. */
export const SIGN_IN_SCOPES = 'openid email profile';

/**
 * The console's pages a sign-in returns to: its root, and the page that takes an invitation
 * (functions/operations/members.ts INVITATION_PATH, not imported: the CDK app loads no
 * operation code; test/infra/cognito.test.ts checks they agree).
 */
export const CONSOLE_CALLBACK_PATHS = ['/', '/invitations'] as const;

/** What the console reads from GET /config.json (`oidc: null`: sign-in not configured). */
export interface ConsoleSignInConfig {
  readonly oidc: { readonly issuer: string; readonly clientId: string; readonly scopes?: string; readonly logoutUrl?: string } | null;
}

/** Where the provider sends the console back after signing out (registered on the app client). */
export const CONSOLE_SIGNED_OUT_PATH = '/';

export interface CognitoSignInProps {
  /**
   * The console's host name (the CloudFront distribution's domain), usually a lazy token:
   * the distribution is created after the API, whose functions need the client id.
   */
  readonly consoleDomain: string;
}

/**
 * People's sign-in when the operator brings no OpenID Connect provider of their own: a
 * Cognito user pool, its hosted sign-in pages on a Cognito prefix domain, and one public app
 * client for the console (authorization code grant with PKCE, no secret).
 *
 * Self sign-up is on, with the e-mail address verified by a code: being in the pool grants
 * nothing. Membership of an account comes only from the app's invitations (members/invite,
 * keys add-owner), and a signed-in person who is no member gets 401 `not-a-member`; so anyone
 * may create an identity, and an invited person signs up through the invitation link without
 * the operator creating a user for them first.
 */
export class CognitoSignIn extends Construct {
  readonly userPool: UserPool;
  readonly domain: UserPoolDomain;
  readonly client: UserPoolClient;
  /** `https://cognito-idp.<region>.amazonaws.com/<user pool id>`: the tokens' `iss`. */
  readonly issuer: string;
  /** `https://cognito-idp.<region>.amazonaws.com`: where the console reads the issuer's discovery document. */
  readonly issuerOrigin: string;
  /** The hosted sign-in pages (token endpoint included): `https://<prefix>.auth.<region>.amazoncognito.com`. */
  readonly signInUrl: string;
  /**
   * Signing out of the hosted pages, back to the console: Cognito's discovery document has no
   * `end_session_endpoint`, its logout is `<domain>/logout?client_id=...&logout_uri=...`
   * (the console's config.json `logoutUrl`). It carries no token.
   */
  readonly logoutUrl: string;

  constructor(scope: Construct, id: string, props: CognitoSignInProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.userPool = new UserPool(this, 'People', {
      // Self sign-up with a verified e-mail address: see the class comment.
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      autoVerify: { email: true },
      keepOriginal: { email: true },
      userVerification: { emailStyle: VerificationEmailStyle.CODE },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false, mutable: true } },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      // Threat protection (compromised credentials, adaptive authentication) enforced.
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      // Memberships name a person by issuer + subject: a new pool would orphan every membership.
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeNag(this.userPool, 'AwsSolutions-COG2', 'cognitoMfaOptional');

    // Prefix domains are unique per region across all accounts: the stack name (lowercase, the
    // words Cognito refuses removed) and the last group of the stack id's UUID (48 random bits).
    const uuid = Fn.select(2, Fn.split('/', stack.stackId));
    this.domain = this.userPool.addDomain('SignIn', {
      cognitoDomain: { domainPrefix: `${domainPrefixName(stack.stackName)}-${Fn.select(4, Fn.split('-', uuid))}` },
    });
    this.signInUrl = this.domain.baseUrl();

    const consoleUrl = `https://${props.consoleDomain}`;
    const signedOutUrl = `${consoleUrl}${CONSOLE_SIGNED_OUT_PATH}`;
    this.client = this.userPool.addClient('Console', {
      userPoolClientName: 'console',
      // A browser app cannot keep a secret: a public client, and the console sends PKCE (S256).
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: CONSOLE_CALLBACK_PATHS.map((path) => `${consoleUrl}${path}`),
        logoutUrls: [signedOutUrl],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });
    // logout_uri unencoded: the URL's characters are all allowed in a query, and Cognito compares it with logoutUrls as is.
    this.logoutUrl = `${this.signInUrl}/logout?client_id=${this.client.userPoolClientId}&logout_uri=${signedOutUrl}`;
    this.issuerOrigin = `https://cognito-idp.${stack.region}.${stack.urlSuffix}`;
    this.issuer = `${this.issuerOrigin}/${this.userPool.userPoolId}`;
  }
}

/**
 * The readable part of the domain prefix: lowercase letters, digits and hyphens, without
 * the reserved words Cognito refuses in a prefix (aws, amazon, cognito), at most 40 characters.
 */
export function domainPrefixName(stackName: string): string {
  const name = stackName
    .toLowerCase()
    .replace(/aws|amazon|cognito/g, '')
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '');
  return name || 'feedback';
}
