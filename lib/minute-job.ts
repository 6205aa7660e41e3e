import { Duration } from 'aws-cdk-lib';
import { type Alarm, ComparisonOperator, Stats, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { operatorAlarm } from './operator-alarm';
import { ServiceFunction } from './service-function';
import { grantTableAccess, type TableAccess } from './table-access';

export interface MinuteJobProps {
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
}

export interface MinuteJobOptions {
  /** Construct ids: `<name>` (the function), `<name>Schedule`, `<name>ErrorsAlarm`. */
  readonly name: string;
  readonly entry: string;
  readonly description: string;
  readonly scheduleDescription: string;
  readonly errorsAlarmDescription: string;
  readonly memorySize: number;
  readonly access: TableAccess;
}

/**
 * A job that runs every minute from a checkpoint (the ranker, the themes job): one run at a
 * time (a reserved concurrency of 1), a 5-minute timeout, no retries (the next minute's run
 * starts from the same checkpoint), and an alarm when it failed 5 minutes in a row.
 */
export function minuteJob(scope: Construct, props: MinuteJobProps, options: MinuteJobOptions): { job: ServiceFunction; errorsAlarm: Alarm } {
  const job = new ServiceFunction(scope, options.name, {
    entry: options.entry,
    description: options.description,
    environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName },
    logRetention: props.logRetention,
    memorySize: options.memorySize,
    timeout: Duration.minutes(5),
    reservedConcurrentExecutions: 1,
  });
  grantTableAccess(job.role, props.table, options.access);
  new Rule(scope, `${options.name}Schedule`, {
    description: options.scheduleDescription,
    schedule: Schedule.rate(Duration.minutes(1)),
    targets: [new LambdaFunction(job.function, { retryAttempts: 0 })],
  });
  const errorsAlarm = operatorAlarm(scope, `${options.name}ErrorsAlarm`, props.alarmAction, {
    alarmDescription: options.errorsAlarmDescription,
    metric: job.function.metricErrors({ period: Duration.minutes(5), statistic: Stats.SUM }),
    threshold: 5,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
  });
  return { job, errorsAlarm };
}
