import { Duration } from 'aws-cdk-lib';
import { type Alarm, ComparisonOperator, Stats, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { STREAM_CONSUMER_TIMEOUT_SECONDS, type StreamConsumerDeclaration } from '../functions/stream/consumers';
import { acknowledgeNag } from './nag';
import { operatorAlarm } from './operator-alarm';
import { ServiceFunction } from './service-function';
import { grantTableAccess } from './table-access';

export interface StreamConsumerProps {
  /** What differs between consumers: entry, record filter, name, table access (functions/stream/consumers.ts). */
  readonly declaration: StreamConsumerDeclaration;
  /** The table whose stream is consumed. */
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
  /** Alarm when the oldest record waits longer than this. @default 60 seconds */
  readonly maxIteratorAge?: Duration;
}

/**
 * One DynamoDB Streams consumer: its function, its own event source mapping (filtered to
 * the items it declared), the dead-letter queue for batches that keep failing, and the
 * alarms telling an operator about either. Every consumer of functions/stream/consumers.ts
 * is one instance (a stream serves two readers per shard; see that file for a third).
 */
export class StreamConsumer extends Construct {
  readonly consumer: ServiceFunction;
  readonly deadLetterQueue: Queue;
  readonly alarms: { readonly deadLetters: Alarm; readonly iteratorAge: Alarm; readonly errors: Alarm };

  constructor(scope: Construct, id: string, props: StreamConsumerProps) {
    super(scope, id);
    const { declaration } = props;

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledgeNag(this.deadLetterQueue, 'AwsSolutions-SQS3', 'dlqHasNoDlq');

    this.consumer = new ServiceFunction(this, 'Consumer', {
      entry: declaration.entry,
      description: declaration.description,
      environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName },
      logRetention: props.logRetention,
      memorySize: 256,
      timeout: Duration.seconds(STREAM_CONSUMER_TIMEOUT_SECONDS),
    });
    grantTableAccess(this.consumer.role, props.table, declaration.access);

    this.consumer.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: declaration.batchSize ?? 100,
        maxBatchingWindow: Duration.seconds(declaration.batchingWindowSeconds ?? 1),
        // One batch of a shard at a time, in order: the counting consumer's watermarks need it
        // (a second concurrent batch of the same shard could be refused as already seen).
        parallelizationFactor: 1,
        ...(declaration.tumblingWindowSeconds ? { tumblingWindow: Duration.seconds(declaration.tumblingWindowSeconds) } : {}),
        bisectBatchOnError: true,
        retryAttempts: 5,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.deadLetterQueue),
        // The same test as the local reader's (functions/stream/events.ts matchesRecordFilter).
        filters: declaration.keyPrefixes.map((prefix) => {
          const eventNames = declaration.eventNames?.[prefix];
          return FilterCriteria.filter({
            dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(prefix) } } },
            ...(eventNames ? { eventName: FilterRule.or(...eventNames) } : {}),
          });
        }),
      }),
    );
    acknowledgeNag(this.consumer.role, 'AwsSolutions-IAM5[Resource::*]', 'listStreams');

    const maxIteratorAge = props.maxIteratorAge ?? Duration.seconds(60);
    this.alarms = {
      deadLetters: operatorAlarm(this, 'DeadLettersAlarm', props.alarmAction, {
        alarmDescription: `Stream records failed every retry of the ${declaration.name} consumer and were sent to its dead-letter queue.`,
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: Stats.MAXIMUM }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      }),
      iteratorAge: operatorAlarm(this, 'IteratorAgeAlarm', props.alarmAction, {
        alarmDescription: `The ${declaration.name} consumer lags: its oldest record is older than ${maxIteratorAge.toSeconds()} s.`,
        metric: this.consumer.function.metric('IteratorAge', { period: Duration.minutes(1), statistic: Stats.MAXIMUM }),
        threshold: maxIteratorAge.toMilliseconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      }),
      errors: operatorAlarm(this, 'ErrorsAlarm', props.alarmAction, {
        alarmDescription: `The ${declaration.name} consumer failed invocations (batches are retried, then bisected, then dead-lettered).`,
        metric: this.consumer.function.metricErrors({ period: Duration.minutes(5), statistic: Stats.SUM }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      }),
    };
  }
}
