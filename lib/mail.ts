import { Aws, Duration, NestedStack } from 'aws-cdk-lib';
import { type IRestApi, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { ComparisonOperator, type IAlarmAction, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { ConfigurationSet, ConfigurationSetEventDestination, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { SES_SANDBOX_RATE_PER_SECOND, senderAddress, UNSUBSCRIBE_PATH } from '../functions/mail/settings';
import { addProxyRoute } from './api-routes';
import { acknowledgeNag } from './nag';
import { operatorAlarm } from './operator-alarm';
import { MAIL_BOUNCES_ENTRY, UNSUBSCRIBE_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { grantSuppressionWrites, grantTableAccess } from './table-access';

/** The unsubscribe route under the API's stage (`mail/unsubscribe`). */
export const UNSUBSCRIBE_ROUTE = UNSUBSCRIBE_PATH.replace(/^\/[^/]+\//, '');

/** The sender of the mails, from `cdk deploy -c mailFrom=...` (docs/api.md, "Mail"). */
export interface MailSender {
  /** As given: `feedback@example.com` or `Feedback <feedback@example.com>`. */
  readonly from: string;
  /** Mails per second at most per run (MAIL_RATE_PER_SECOND). @default SES's sandbox rate, 1 */
  readonly ratePerSecond?: number;
}

/** Context mailFrom (and mailRatePerSecond), checked: a sender address, or nothing (mail off). */
export function mailSenderOf(from: unknown, ratePerSecond: unknown): MailSender | undefined {
  if (from === undefined || from === null || (typeof from === 'string' && from.trim() === '')) {
    if (ratePerSecond !== undefined && ratePerSecond !== null && ratePerSecond !== '') throw new Error('Context mailRatePerSecond needs mailFrom');
    return undefined;
  }
  if (typeof from !== 'string' || !senderAddress(from)) {
    throw new Error(`Context mailFrom must be a sender address (feedback@example.com or "Feedback <feedback@example.com>"), got ${String(from)}`);
  }
  if (ratePerSecond === undefined || ratePerSecond === null || ratePerSecond === '') return { from: from.trim() };
  const rate = Number(ratePerSecond);
  if (!Number.isInteger(rate) || rate < 1) throw new Error(`Context mailRatePerSecond must be a whole number of at least 1, got ${String(ratePerSecond)}`);
  return { from: from.trim(), ratePerSecond: rate };
}

/**
 * The SES identities a sender may be verified as: its address, and each domain it is at
 * (`feedback@mail.example.com`: that address, `mail.example.com`, `example.com`). SES
 * authorizes a send against the identity it sends as, which is the address when the address
 * is verified, else the verified domain (a domain covers its subdomains).
 */
export function senderIdentities(from: string): string[] {
  const address = senderAddress(from);
  if (!address) throw new Error(`${from} is not a sender address`);
  const labels = address
    .slice(address.lastIndexOf('@') + 1)
    .toLowerCase()
    .split('.');
  const domains = labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'));
  return [address, ...domains];
}

export interface MailProps {
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
  /** The API whose `mail/unsubscribe` route (made here, in this nested stack) invokes the unsubscribe function. */
  readonly api: IRestApi;
  /** The key signing the unsubscribe links (a secret of the parent stack, which keeps the stateful resources). */
  readonly tokenKey: ISecret;
  /** The console's base URL: the unsubscribe page links it, and every mail does (none without a console: then no mail). */
  readonly consoleUrl?: string;
  /** Without it mail is off: no configuration set, no bounce handling, nothing may send. */
  readonly sender?: MailSender;
}

/**
 * Mail on AWS (docs/architecture.md, "Mail"), a nested stack with its own API route, so
 * the parent template grows by this stack and the links' key only (docs/architecture.md,
 * "Room under CloudFormation's limit"; the parent's API deployment depends on this stack):
 *
 * - always: the unsubscribe function behind GET/POST /v0/mail/unsubscribe (links already
 *   mailed keep working when mail is turned off);
 * - with a sender (`-c mailFrom`): the SES configuration set every mail is sent in, its event
 *   destination (bounces and complaints) to an SNS topic, the function that suppresses those
 *   addresses (functions/mail/bounces-handler.ts) with a dead-letter queue for events it
 *   could not take, and alarms; `grantSend` gives a sender `ses:SendEmail` on the sender's
 *   identities and the configuration set only.
 */
export class Mail extends NestedStack {
  readonly unsubscribe: ServiceFunction;
  /** The configuration set, the bounce function and its dead-letter queue, when mail is on. */
  readonly sending?: { readonly configurationSet: ConfigurationSet; readonly bounces: ServiceFunction; readonly deadLetterQueue: Queue; readonly topic: Topic };
  private readonly props: MailProps;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id, {
      description: props.sender
        ? 'Mail of the feedback service: the unsubscribe link, the SES configuration set and its bounce and complaint handling'
        : 'Mail of the feedback service: the unsubscribe link (mail is off: no sender was given at deploy)',
    });
    this.props = props;

    this.unsubscribe = new ServiceFunction(this, 'Unsubscribe', {
      entry: UNSUBSCRIBE_ENTRY,
      description: "GET/POST /v0/mail/unsubscribe: the mails' one-click unsubscribe link and its page",
      environment: {
        TABLE_NAME: props.table.tableName,
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        ...(props.consoleUrl ? { CONSOLE_URL: props.consoleUrl } : {}),
        MAIL_TOKEN_KEY_ARN: props.tokenKey.secretArn,
      },
      logRetention: props.logRetention,
    });
    grantTableAccess(this.unsubscribe.role, props.table, 'unsubscribe');
    props.tokenKey.grantRead(this.unsubscribe.role);
    this.unsubscribe.function.addPermission('ApiInvoke', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: props.api.arnForExecuteApi('*', '/*', '*'),
    });
    // The route's resources and method here, on the parent's API by its ids: three resources fewer in the parent.
    const api = RestApi.fromRestApiAttributes(this, 'Api', { restApiId: props.api.restApiId, rootResourceId: props.api.restApiRootResourceId });
    addProxyRoute(api.root, UNSUBSCRIBE_ROUTE, this.unsubscribe);
    // Anonymous by design, as the parent's routes: the signed token is the authorization.
    acknowledgeNag(api, 'AwsSolutions-APIG4', 'publicApi');
    acknowledgeNag(api, 'AwsSolutions-COG4', 'publicApiNoCognito');

    if (props.sender) this.sending = this.sendingParts(props);
  }

  private sendingParts(props: MailProps) {
    const configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      // The service keeps its own suppression list per account (functions/mail/bounces.ts),
      // which a member lifts from the console after fixing their mailbox; SES's account-level
      // list would go on dropping their mail silently (each drop a bounce event that suppresses
      // them again).
      disableSuppressionList: true,
    });
    const topic = new Topic(this, 'Events', { displayName: 'Feedback service: SES bounces and complaints', enforceSSL: true });
    new ConfigurationSetEventDestination(this, 'BouncesAndComplaints', {
      configurationSet,
      destination: EventDestination.snsTopic(topic),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });

    const deadLetterQueue = new Queue(this, 'BouncesDeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledgeNag(deadLetterQueue, 'AwsSolutions-SQS3', 'mailDlqHasNoDlq');
    const bounces = new ServiceFunction(this, 'Bounces', {
      entry: MAIL_BOUNCES_ENTRY,
      description: "SES's bounce and complaint events: suppresses those addresses for the mail's account",
      environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName },
      logRetention: props.logRetention,
    });
    grantSuppressionWrites(bounces.role, props.table);
    // SNS invokes the function asynchronously: Lambda retries a failed event twice, then it goes
    // to the queue; an event SNS itself cannot deliver (throttled past its retries) goes there too.
    bounces.function.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(6), onFailure: new SqsDestination(deadLetterQueue) });
    topic.addSubscription(new LambdaSubscription(bounces.function, { deadLetterQueue }));

    operatorAlarm(this, 'BouncesDeadLettersAlarm', props.alarmAction, {
      alarmDescription:
        'SES bounce or complaint events could not be applied and wait in the dead-letter queue: those addresses are not suppressed, and the service may mail them again.',
      metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: Stats.MAXIMUM }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
    operatorAlarm(this, 'BouncesErrorsAlarm', props.alarmAction, {
      alarmDescription: 'The function applying SES bounce and complaint events failed (retried twice, then dead-lettered).',
      metric: bounces.function.metricErrors({ period: Duration.minutes(5), statistic: Stats.SUM }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
    return { configurationSet, bounces, deadLetterQueue, topic };
  }

  /**
   * What a function that sends mail is given (mail/settings.ts reads it): the sender, SES as
   * the way out in this configuration set, the rate, and the unsubscribe links' key. Undefined
   * when mail is off.
   */
  senderEnvironment(): Record<string, string> | undefined {
    const { sender } = this.props;
    if (!sender || !this.sending) return undefined;
    return {
      ...mailSwitch(sender),
      MAIL_CONFIGURATION_SET: this.sending.configurationSet.configurationSetName,
      ...(sender.ratePerSecond && sender.ratePerSecond !== SES_SANDBOX_RATE_PER_SECOND ? { MAIL_RATE_PER_SECOND: String(sender.ratePerSecond) } : {}),
      MAIL_TOKEN_KEY_ARN: this.props.tokenKey.secretArn,
    };
  }

  /**
   * Lets a role send mail: `ses:SendEmail` on the sender's identities and this configuration
   * set (SES v2 authorizes a send against both), and reading the links' key. Nothing else of SES.
   */
  grantSend(role: IRole): void {
    const { sender } = this.props;
    if (!sender || !this.sending) throw new Error('Mail is off (no mailFrom): nothing may send');
    // The deploying stack's partition, region and account as pseudo parameters, whichever stack
    // the role is in (a nested one, or the parent), and whether or not the app names an environment.
    const ses = `arn:${Aws.PARTITION}:ses:${Aws.REGION}:${Aws.ACCOUNT_ID}`;
    role.addToPrincipalPolicy(
      new PolicyStatement({
        sid: 'SendMail',
        actions: ['ses:SendEmail'],
        resources: [
          ...senderIdentities(sender.from).map((identity) => `${ses}:identity/${identity}`),
          `${ses}:configuration-set/${this.sending.configurationSet.configurationSetName}`,
        ],
      }),
    );
    this.props.tokenKey.grantRead(role);
  }
}

/**
 * The two settings that say whether this deployment mails (members/notifications shows it):
 * given to every function of the API, constants of the deploy.
 */
export function mailSwitch(sender: MailSender | undefined): Record<string, string> {
  return sender ? { MAIL_FROM: sender.from, MAIL_TRANSPORT: 'ses' } : {};
}
