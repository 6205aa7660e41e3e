import { CfnOutput, Lazy, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { DEFAULT_AGGREGATES_MAX_AGE_SECONDS } from '../functions/api/cache-control';
import { allowedOrigins } from '../functions/api/cors';
import { anonymousRateLimit, type AnonymousRateLimit } from '../functions/api/rate-limits';
import type { OperationDeclaration } from '../functions/api/operation';
import { operationPath } from '../functions/api/operation';
import { operationList } from '../functions/api/registry';
import { FeedbackConsole } from './console';
import { MANAGED_RULE_MODES, PublicEdge, type ManagedRuleMode } from './edge';
import { API_STAGE_NAME, FeedbackApi, type ApiThrottling } from './feedback-api';
import { FeedbackTable } from './feedback-table';
import { STREAM_CONSUMERS } from '../functions/stream/consumers';
import type { AlertsJob } from './alerts-job';
import { Mail, mailSenderOf, UNSUBSCRIBE_ROUTE } from './mail';
import { acknowledgeNag } from './nag';
import type { RankerJob } from './ranker-job';
import { ScheduledJobs } from './scheduled-jobs';
import { ThemesJob } from './themes-job';
import { CognitoSignIn, type ConsoleSignInConfig, SIGN_IN_SCOPES } from './sign-in';
import { StreamConsumer } from './stream-consumer';
import { WebhookDelivery } from './webhook-delivery';

export const DEFAULT_THROTTLING: ApiThrottling = { rateLimit: 100, burstLimit: 200 };

export interface FeedbackStackProps extends StackProps {
  /**
   * Origins allowed to call the API from browsers: a list, or a comma-separated string.
   * @default context `corsAllowedOrigins`, else `*`
   */
  readonly corsAllowedOrigins?: string | readonly string[];
  /** @default context `apiRateLimit` / `apiBurstLimit`, else 100 / 200 */
  readonly throttling?: Partial<ApiThrottling>;
  /** Subscribed to the alarm topic when set. @default context `alarmEmail` */
  readonly alarmEmail?: string;
  /** @default one month */
  readonly logRetention?: RetentionDays;
  /** @default every operation of functions/api/registry.ts */
  readonly operations?: readonly OperationDeclaration[];
  /** The Lambda entry of each operation (lib/feedback-api.ts). @default its handler module */
  readonly handlerEntry?: (operation: OperationDeclaration) => string;
  /**
   * The web console, the default behaviour of the API's CloudFront distribution (so it is
   * same-origin with the API under /v0/*); `false` leaves it out. A string is a folder holding a
   * built console. @default context `console` (`false` leaves it out), else built at synth time
   */
  readonly console?: boolean | string;
  /**
   * Per-visitor limit on the anonymous writes (WAF rate-based rule); limit 0 turns it off.
   * @default context `anonymousRateLimit` / `anonymousRateWindowSeconds`, else 300 per 300 s
   */
  readonly anonymousRateLimit?: Partial<AnonymousRateLimit>;
  /** The AWS managed rule groups of the web ACL. @default context `wafManagedRules`, else `block` */
  readonly wafManagedRules?: ManagedRuleMode;
  /** Seconds the edge and browsers may keep a public set's counts (0: not cached). @default context `aggregatesMaxAge`, else 10 */
  readonly aggregatesMaxAge?: number;
  /**
   * Sign-in of people (docs/api.md, "People: Bearer tokens"): the OpenID Connect issuer
   * (an https URL) and the client id its tokens name as audience. Both or neither.
   * Given (or context `oidcIssuer` / `oidcClientId`), the stack creates no user pool.
   * @default context `oidcIssuer` / `oidcClientId`, else this stack's Cognito user pool (see `cognito`)
   */
  readonly oidc?: OidcConfiguration;
  /**
   * Without `oidc`: a Cognito user pool and the console's app client (lib/sign-in.ts), the
   * issuer of people's tokens; `false`: sign-in not configured (only API keys). Needs the console.
   * @default context `cognito` (`false` turns it off), else true when the console is deployed
   */
  readonly cognito?: boolean;
  /**
   * The sender of alert and digest mails, an SES verified identity (README, "Mail"):
   * `feedback@example.com` or `Feedback <feedback@example.com>`. Without it mail is off
   * (the console says so). Needs the console, which every mail links to.
   * @default context `mailFrom`, else none (mail off)
   */
  readonly mailFrom?: string;
  /** Mails per second at most per run. @default context `mailRatePerSecond`, else 1 (SES's sandbox rate) */
  readonly mailRatePerSecond?: number;
}

export interface OidcConfiguration {
  readonly issuer: string;
  readonly clientId: string;
}

/** Both settings or neither; a deployed issuer is https (http issuers are for loopback tests only). */
export function oidcConfiguration(issuer: unknown, clientId: unknown): OidcConfiguration | undefined {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const [iss, client] = [text(issuer), text(clientId)];
  if (!iss && !client) return undefined;
  if (!iss || !client) throw new Error('Context oidcIssuer and oidcClientId must be set together');
  if (!/^https:\/\/[^\s/]+/.test(iss)) throw new Error(`Context oidcIssuer must be an https URL, got ${iss}`);
  return { issuer: iss, clientId: client };
}

/** Value POWERTOOLS_SERVICE_NAME; the same name the shared logger uses. */
export const SERVICE_NAME = 'feedback';

export class FeedbackStack extends Stack {
  readonly table: FeedbackTable;
  readonly api: FeedbackApi;
  /** CloudFront in front of the API and the console, and the API's web ACL. */
  readonly edge: PublicEdge;
  /** One per entry of functions/stream/consumers.ts, by name. */
  readonly streamConsumers: ReadonlyMap<string, StreamConsumer>;
  readonly rankerJob: RankerJob;
  readonly alertsJob: AlertsJob;
  readonly themesJob: ThemesJob;
  readonly webhookDelivery: WebhookDelivery;
  readonly alarmTopic: Topic;
  /** The console's bucket and its behaviour on the edge's distribution, unless left out. */
  readonly console?: FeedbackConsole;
  /** The user pool and the console's app client, when the stack provides people's sign-in. */
  readonly cognito?: CognitoSignIn;
  /** The issuer and client id every API function is given (OIDC_ISSUER, OIDC_CLIENT_ID), when sign-in is configured. */
  readonly oidc?: OidcConfiguration;
  /** The key signing the mails' unsubscribe links: the unsubscribe function and the senders read it. */
  readonly mailTokenKey: Secret;
  /** The unsubscribe link, and with a sender the SES configuration set and bounce handling (a nested stack). */
  readonly mail: Mail;

  constructor(scope: Construct, id: string, props: FeedbackStackProps = {}) {
    super(scope, id, props);
    const corsAllowedOrigins = normalizeOrigins(props.corsAllowedOrigins ?? this.node.tryGetContext('corsAllowedOrigins'));
    const throttling: ApiThrottling = {
      rateLimit: props.throttling?.rateLimit ?? positiveNumber(this.node.tryGetContext('apiRateLimit'), 'apiRateLimit') ?? DEFAULT_THROTTLING.rateLimit,
      burstLimit: props.throttling?.burstLimit ?? positiveNumber(this.node.tryGetContext('apiBurstLimit'), 'apiBurstLimit') ?? DEFAULT_THROTTLING.burstLimit,
    };
    const alarmEmail: string | undefined = props.alarmEmail ?? (this.node.tryGetContext('alarmEmail') || undefined);
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    this.table = new FeedbackTable(this, 'Data');

    const consoleOption = props.console ?? String(this.node.tryGetContext('console') ?? 'true') !== 'false';
    const mailSender = mailSenderOf(
      props.mailFrom ?? this.node.tryGetContext('mailFrom'),
      props.mailRatePerSecond ?? this.node.tryGetContext('mailRatePerSecond'),
    );
    if (mailSender && consoleOption === false) throw new Error('Context mailFrom needs the console: every mail links to its pages (leave out console=false)');
    // People's sign-in: the operator's provider, else this stack's user pool, else none.
    const ownProvider = props.oidc ?? oidcConfiguration(this.node.tryGetContext('oidcIssuer'), this.node.tryGetContext('oidcClientId'));
    const cognitoWanted = props.cognito ?? String(this.node.tryGetContext('cognito') ?? 'true') !== 'false';
    if (!ownProvider && cognitoWanted && consoleOption !== false) {
      // The app client's redirect URIs name the distribution, which is created after the API
      // whose functions need the client id: its domain is filled in at synthesis.
      this.cognito = new CognitoSignIn(this, 'SignIn', {
        consoleDomain: Lazy.string({ produce: () => this.edge.distribution.distributionDomainName }),
      });
    }
    this.oidc = ownProvider ?? (this.cognito ? { issuer: this.cognito.issuer, clientId: this.cognito.client.userPoolClientId } : undefined);

    const operations = props.operations ?? operationList;
    this.api = new FeedbackApi(this, 'Api', {
      operations,
      table: this.table.table,
      corsAllowedOrigins,
      throttling,
      logRetention,
      serviceName: SERVICE_NAME,
      oidc: this.oidc,
      // Invitation links point at the console, on the distribution made after the API.
      consoleUrl: consoleOption === false ? undefined : Lazy.string({ produce: () => `https://${this.edge.distribution.distributionDomainName}` }),
      handlerEntry: props.handlerEntry,
      mailSender,
    });

    const rateLimit = anonymousRateLimit(
      props.anonymousRateLimit?.limit ?? this.node.tryGetContext('anonymousRateLimit'),
      props.anonymousRateLimit?.windowSeconds ?? this.node.tryGetContext('anonymousRateWindowSeconds'),
      { names: { limit: 'Context anonymousRateLimit', window: 'Context anonymousRateWindowSeconds' }, waf: true },
    );
    const managedRules = props.wafManagedRules ?? this.node.tryGetContext('wafManagedRules') ?? 'block';
    if (!(MANAGED_RULE_MODES as readonly string[]).includes(managedRules)) {
      throw new Error(`Context wafManagedRules must be one of ${MANAGED_RULE_MODES.join(', ')}, got ${String(managedRules)}`);
    }
    if (consoleOption !== false) {
      const signIn: ConsoleSignInConfig = this.oidc
        ? { oidc: { ...this.oidc, scopes: SIGN_IN_SCOPES, ...(this.cognito ? { logoutUrl: this.cognito.logoutUrl } : {}) } }
        : { oidc: null };
      this.console = new FeedbackConsole(this, 'Console', {
        consoleDir: typeof consoleOption === 'string' ? consoleOption : undefined,
        signIn,
        // The console discovers the issuer and exchanges codes at its token endpoint (Cognito's: the hosted domain).
        connectSources: this.cognito
          ? [this.cognito.issuerOrigin, this.cognito.signInUrl]
          : this.oidc
            ? [...new Set([new URL(this.oidc.issuer).origin, ...connectOrigins(this.node.tryGetContext('oidcConnectSources'))])]
            : [],
      });
    }
    this.edge = new PublicEdge(this, 'Edge', {
      restApi: this.api.restApi,
      stageName: API_STAGE_NAME,
      operations,
      corsAllowedOrigins,
      anonymousRateLimit: rateLimit,
      managedRules: managedRules as ManagedRuleMode,
      defaultBehavior: this.console?.behavior,
    });
    this.console?.deployTo(this.edge.distribution);
    const maxAge = props.aggregatesMaxAge ?? seconds(this.node.tryGetContext('aggregatesMaxAge'), 'aggregatesMaxAge') ?? DEFAULT_AGGREGATES_MAX_AGE_SECONDS;
    this.api.functions.get('responses/getAggregates')?.function.addEnvironment('AGGREGATES_MAX_AGE_SECONDS', String(maxAge));

    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: 'Feedback service alarms', enforceSSL: true });
    if (alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(alarmEmail));

    const alarmAction = new SnsAction(this.alarmTopic);
    this.streamConsumers = new Map(
      STREAM_CONSUMERS.map((declaration) => [
        declaration.name,
        new StreamConsumer(this, `${declaration.name[0].toUpperCase()}${declaration.name.slice(1)}Consumer`, {
          declaration,
          table: this.table.table,
          logRetention,
          serviceName: SERVICE_NAME,
          alarmAction,
        }),
      ]),
    );
    this.themesJob = new ThemesJob(this, 'Themes', { table: this.table.table, logRetention, serviceName: SERVICE_NAME, alarmAction });
    const jobs = new ScheduledJobs(this, 'Jobs', {
      table: this.table.table,
      logRetention,
      serviceName: SERVICE_NAME,
      alarmAction,
      // Alerts link the entity's page in the console, on the distribution.
      consoleUrl: consoleOption === false ? undefined : Lazy.string({ produce: () => `https://${this.edge.distribution.distributionDomainName}` }),
    });
    this.rankerJob = jobs.rankerJob;
    this.alertsJob = jobs.alertsJob;

    const webhooksConsumer = this.streamConsumers.get('webhooks')!.consumer;
    this.webhookDelivery = new WebhookDelivery(this, 'Webhooks', {
      table: this.table.table,
      logRetention,
      serviceName: SERVICE_NAME,
      alarmAction,
      attemptLogGroups: [webhooksConsumer.logGroup],
    });
    // Only the functions that seal or open signing secrets may read the key that protects them.
    const secretsKey = this.webhookDelivery.secretsKey;
    const sealing = (props.operations ?? operationList).filter((operation) => operation.opensWebhookSecrets);
    for (const fn of [webhooksConsumer, ...sealing.flatMap((operation) => this.api.functions.get(operationPath(operation)) ?? [])]) {
      fn.function.addEnvironment('WEBHOOK_SECRETS_KEY_ARN', secretsKey.secretArn);
      secretsKey.grantRead(fn.role);
    }

    // Generated at the first deployment; a new value voids the unsubscribe links of every mail
    // sent before (the console's Notifications page still works). Kept while mail is off, so
    // links already mailed keep working.
    this.mailTokenKey = new Secret(this, 'MailTokenKey', {
      description: "Signs the unsubscribe links of the feedback service's mails (HS256 key under SHA-256 of this value)",
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledgeNag(this.mailTokenKey, 'AwsSolutions-SMG4', 'mailTokenKeyRotation');
    this.mail = new Mail(this, 'Mail', {
      table: this.table.table,
      logRetention,
      serviceName: SERVICE_NAME,
      alarmAction,
      api: this.api.restApi,
      tokenKey: this.mailTokenKey,
      consoleUrl: consoleOption === false ? undefined : Lazy.string({ produce: () => `https://${this.edge.distribution.distributionDomainName}` }),
      sender: mailSender,
    });
    // The unsubscribe route is in the nested stack: the API's deployment waits for it, and is
    // a new one when the route is added (its logical id hashes what it serves).
    const deployment = this.api.restApi.latestDeployment!;
    deployment.node.addDependency(this.mail);
    deployment.addToLogicalId({ route: `ANY ${UNSUBSCRIBE_ROUTE}`, invokes: 'Mail/Unsubscribe' });
    // Only the functions that send mail may: the jobs and the operations declared `sendsMail`.
    const senderEnvironment = this.mail.senderEnvironment();
    if (senderEnvironment) {
      const sendingOperations = operations.filter((operation) => operation.sendsMail);
      for (const fn of [
        this.alertsJob.alerts,
        this.alertsJob.digest,
        ...sendingOperations.flatMap((operation) => this.api.functions.get(operationPath(operation)) ?? []),
      ]) {
        for (const [name, value] of Object.entries(senderEnvironment)) fn.function.addEnvironment(name, value);
        this.mail.grantSend(fn.role);
      }
      new CfnOutput(this, 'MailConfigurationSet', {
        value: this.mail.sending!.configurationSet.configurationSetName,
        description: `The SES configuration set of every mail (from ${mailSender!.from}); its bounces and complaints suppress addresses`,
      });
    }

    if (this.console) {
      new CfnOutput(this, 'ConsoleUrl', {
        value: `https://${this.edge.distribution.distributionDomainName}/`,
        description: 'The web console (the API is under <ConsoleUrl>v0)',
      });
    }

    if (this.cognito) {
      new CfnOutput(this, 'UserPoolId', { value: this.cognito.userPool.userPoolId, description: "People's sign-in: the Cognito user pool" });
      new CfnOutput(this, 'SignInIssuer', { value: this.cognito.issuer, description: 'The OpenID Connect issuer of the user pool (OIDC_ISSUER of the API)' });
      new CfnOutput(this, 'SignInUrl', { value: this.cognito.signInUrl, description: 'The hosted sign-in pages of the user pool' });
      new CfnOutput(this, 'SignInClientId', {
        value: this.cognito.client.userPoolClientId,
        description: "The console's app client (OIDC_CLIENT_ID of the API)",
      });
    }

    new CfnOutput(this, 'ApiUrl', { value: this.edge.url, description: 'Base URL of the API, through CloudFront (ends in /v0)' });
    new CfnOutput(this, 'DistributionId', {
      value: this.edge.distribution.distributionId,
      description: this.console ? 'The CloudFront distribution (the console, and the API under /v0/*)' : 'The CloudFront distribution (API under /v0/*)',
    });
    new CfnOutput(this, 'TableName', { value: this.table.table.tableName, description: 'The DynamoDB table' });
  }
}

/** Context oidcConnectSources: https origins, comma- or space-separated (a provider's token endpoint on another host). */
function connectOrigins(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  return String(value)
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      if (!/^https:\/\/[^\s/]+\/?$/.test(entry)) throw new Error(`Context oidcConnectSources must list https origins, got ${entry}`);
      return new URL(entry).origin;
    });
}

/** Same parsing as the handlers (functions/api/cors.ts), so API Gateway and Lambda agree. */
function normalizeOrigins(value: unknown): string[] {
  const raw = Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : undefined;
  const origins = allowedOrigins({ CORS_ALLOWED_ORIGINS: raw });
  return origins.includes('*') ? ['*'] : origins;
}

function seconds(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`Context ${name} must be a whole number of seconds (0 or more), got ${String(value)}`);
  return number;
}

function positiveNumber(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`Context ${name} must be a positive number, got ${String(value)}`);
  return number;
}
