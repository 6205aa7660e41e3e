import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Stats, TreatMissingData, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { RESPONSE_KEY_PREFIX } from '../functions/stream/consumer';
import { acknowledgeNag } from './nag';
import { ROLLOVER_ENTRY, STREAM_CONSUMER_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { grantTableAccess } from './table-access';

export interface StreamConsumerProps {
  /** The table whose stream is consumed (and whose aggregate items the consumer writes). */
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
  /** Alarm when the oldest record waits longer than this. @default 60 seconds */
  readonly maxIteratorAge?: Duration;
}

/**
 * The DynamoDB Streams consumer that keeps the aggregate counters, its dead-letter queue
 * for batches that keep failing, the daily job that slides the rolling windows, and the
 * alarms telling an operator about any of them.
 */
export class StreamConsumer extends Construct {
  readonly consumer: ServiceFunction;
  readonly rollover: ServiceFunction;
  readonly deadLetterQueue: Queue;
  readonly alarms: { readonly deadLetters: Alarm; readonly iteratorAge: Alarm; readonly errors: Alarm; readonly rolloverErrors: Alarm };

  constructor(scope: Construct, id: string, props: StreamConsumerProps) {
    super(scope, id);

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledgeNag(this.deadLetterQueue, 'AwsSolutions-SQS3', 'dlqHasNoDlq');

    this.consumer = new ServiceFunction(this, 'Consumer', {
      entry: STREAM_CONSUMER_ENTRY,
      description: 'DynamoDB Streams consumer: maintains the aggregate counters',
      environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName },
      logRetention: props.logRetention,
      memorySize: 256,
      timeout: Duration.seconds(60),
    });
    grantTableAccess(this.consumer.role, props.table, 'streamConsumer');

    this.consumer.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        bisectBatchOnError: true,
        retryAttempts: 5,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.deadLetterQueue),
        // Only responses change counts; without this filter the consumer would be invoked for its own counter writes.
        filters: [FilterCriteria.filter({ dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(RESPONSE_KEY_PREFIX) } } } })],
      }),
    );
    acknowledgeNag(this.consumer.role, 'AwsSolutions-IAM5[Resource::*]', 'listStreams');

    this.rollover = new ServiceFunction(this, 'Rollover', {
      entry: ROLLOVER_ENTRY,
      description: 'Daily job: recomputes the rolling-window counters of entities whose oldest day or month left the window',
      environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName },
      logRetention: props.logRetention,
      memorySize: 256,
      timeout: Duration.minutes(15),
    });
    grantTableAccess(this.rollover.role, props.table, 'rollover');
    // 00:05 UTC: a consumer batch started just before midnight has finished (see rollover.ts).
    new Rule(this, 'RolloverSchedule', {
      description: 'Slides the rolling windows (rolling7d, rolling28d, rolling12m) once a day',
      schedule: Schedule.cron({ minute: '5', hour: '0' }),
      targets: [new LambdaFunction(this.rollover.function, { retryAttempts: 2 })],
    });

    const maxIteratorAge = props.maxIteratorAge ?? Duration.seconds(60);
    this.alarms = {
      deadLetters: new Alarm(this, 'DeadLettersAlarm', {
        alarmDescription: 'Stream records failed every retry and were sent to the dead-letter queue: aggregates are missing them.',
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: Stats.MAXIMUM }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      iteratorAge: new Alarm(this, 'IteratorAgeAlarm', {
        alarmDescription: `The stream consumer lags: its oldest record is older than ${maxIteratorAge.toSeconds()} s.`,
        metric: this.consumer.function.metric('IteratorAge', { period: Duration.minutes(1), statistic: Stats.MAXIMUM }),
        threshold: maxIteratorAge.toMilliseconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      errors: new Alarm(this, 'ErrorsAlarm', {
        alarmDescription: 'The stream consumer failed invocations (batches are retried, then bisected, then dead-lettered).',
        metric: this.consumer.function.metricErrors({ period: Duration.minutes(5), statistic: Stats.SUM }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      rolloverErrors: new Alarm(this, 'RolloverErrorsAlarm', {
        alarmDescription: 'The daily rollover job failed: rankings of rolling windows still include days that left them.',
        metric: this.rollover.function.metricErrors({ period: Duration.hours(1), statistic: Stats.SUM }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    };
    for (const alarm of Object.values(this.alarms)) {
      alarm.addAlarmAction(props.alarmAction);
      alarm.addOkAction(props.alarmAction);
    }
  }
}
