import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { type Alarm, ComparisonOperator, Metric, Stats, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterPattern, MetricFilter, type ILogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledgeNag } from './nag';
import { operatorAlarm } from './operator-alarm';
import { WEBHOOK_SWEEPER_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { grantTableAccess } from './table-access';

/** The log line functions/webhooks/attempts.ts writes when a delivery gives up; the alarm counts them. */
export const FAILED_DELIVERY_MESSAGE = 'webhook delivery failed';
export const METRIC_NAMESPACE = 'FeedbackService';
export const FAILED_DELIVERIES_METRIC = 'WebhookDeliveriesFailed';

export interface WebhookDeliveryProps {
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
  /** Log groups of the functions that attempt deliveries besides the sweeper (the webhooks consumer). */
  readonly attemptLogGroups: readonly ILogGroup[];
}

/**
 * The parts of webhook delivery that are not an operation or a stream consumer: the
 * service key that seals signing secrets (a generated Secrets Manager secret, kept when
 * the stack is deleted, like the table whose secrets it opens), the sweeper function and
 * its every-minute schedule, and the alarms on sweeper errors and on deliveries that gave
 * up. The design (why a table index swept by a schedule, not a queue) is in
 * docs/architecture.md.
 */
export class WebhookDelivery extends Construct {
  readonly secretsKey: Secret;
  readonly sweeper: ServiceFunction;
  readonly alarms: { readonly sweeperErrors: Alarm; readonly failedDeliveries: Alarm };

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);

    this.secretsKey = new Secret(this, 'SecretsKey', {
      description: 'Key that encrypts webhook signing secrets at rest in the feedback table (AES-256-GCM under SHA-256 of this value)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeNag(this.secretsKey, 'AwsSolutions-SMG4', 'webhookKeyRotation');

    this.sweeper = new ServiceFunction(this, 'Sweeper', {
      entry: WEBHOOK_SWEEPER_ENTRY,
      description: 'Every minute: sends due webhook deliveries (retries, redeliveries), claiming each so none goes out twice at once',
      environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName, WEBHOOK_SECRETS_KEY_ARN: this.secretsKey.secretArn },
      logRetention: props.logRetention,
      memorySize: 256,
      // Attempts start for 55 s; the last one may take 10 s, plus its bookkeeping.
      timeout: Duration.seconds(90),
    });
    grantTableAccess(this.sweeper.role, props.table, 'webhookSweeper');
    this.secretsKey.grantRead(this.sweeper.role);

    new Rule(this, 'SweepSchedule', {
      description: 'Starts the webhook sweeper every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      // The next minute's run sweeps anyway; a retried run would only overlap it.
      targets: [new LambdaFunction(this.sweeper.function, { retryAttempts: 0 })],
    });

    // One metric from the log lines of every function that attempts deliveries.
    for (const [index, logGroup] of [this.sweeper.logGroup, ...props.attemptLogGroups].entries()) {
      new MetricFilter(this, `FailedDeliveries${index}`, {
        logGroup,
        metricNamespace: METRIC_NAMESPACE,
        metricName: FAILED_DELIVERIES_METRIC,
        filterPattern: FilterPattern.stringValue('$.message', '=', FAILED_DELIVERY_MESSAGE),
        metricValue: '1',
      });
    }

    this.alarms = {
      sweeperErrors: operatorAlarm(this, 'SweeperErrorsAlarm', props.alarmAction, {
        alarmDescription: 'The webhook sweeper failed: retries and redeliveries are not being sent.',
        metric: this.sweeper.function.metricErrors({ period: Duration.minutes(5), statistic: Stats.SUM }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      }),
      failedDeliveries: operatorAlarm(this, 'FailedDeliveriesAlarm', props.alarmAction, {
        alarmDescription:
          'Webhook deliveries gave up (retry schedule exhausted, 410, redirect or another 4xx): receivers missed events. webhooks/deliveries shows them; webhooks/redeliver sends them again.',
        metric: new Metric({ namespace: METRIC_NAMESPACE, metricName: FAILED_DELIVERIES_METRIC, statistic: Stats.SUM, period: Duration.minutes(5) }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      }),
    };
  }
}
