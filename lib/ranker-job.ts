import { Duration } from 'aws-cdk-lib';
import { type Alarm, ComparisonOperator, Stats, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { operatorAlarm } from './operator-alarm';
import { RANKER_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { grantTableAccess } from './table-access';

export interface RankerJobProps {
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
}

/** The ranker (functions/jobs/ranker.ts): the top lists, refreshed every minute, one run at a time; its error alarm. */
export class RankerJob extends Construct {
  readonly ranker: ServiceFunction;
  readonly errorsAlarm: Alarm;

  constructor(scope: Construct, id: string, props: RankerJobProps) {
    super(scope, id);
    this.ranker = new ServiceFunction(this, 'Ranker', {
      entry: RANKER_ENTRY,
      description: 'Every minute: recounts the sets and items whose counts changed and rewrites their top lists',
      environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName },
      logRetention: props.logRetention,
      memorySize: 256,
      timeout: Duration.minutes(5),
      // One run at a time: a run that overlaps the next would recount the same lists.
      reservedConcurrentExecutions: 1,
    });
    grantTableAccess(this.ranker.role, props.table, 'ranker');
    new Rule(this, 'RankerSchedule', {
      description: 'Refreshes the top lists from the sets and items whose counts changed',
      schedule: Schedule.rate(Duration.minutes(1)),
      // No retries: the next minute's run starts from the same checkpoint.
      targets: [new LambdaFunction(this.ranker.function, { retryAttempts: 0 })],
    });
    this.errorsAlarm = operatorAlarm(this, 'RankerErrorsAlarm', props.alarmAction, {
      alarmDescription: 'The ranker failed 5 minutes in a row: rankings (sets/top, contents/top) are falling behind the counts.',
      metric: this.ranker.function.metricErrors({ period: Duration.minutes(5), statistic: Stats.SUM }),
      threshold: 5,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
  }
}
