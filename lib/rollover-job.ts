import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Stats, TreatMissingData, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ROLLING_PERIODS } from '../shared/periods';
import { ROLLOVER_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { grantTableAccess } from './table-access';

export interface RolloverJobProps {
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
}

/** The daily job that slides the rolling windows (functions/jobs/rollover.ts), its schedule and its error alarm. */
export class RolloverJob extends Construct {
  readonly rollover: ServiceFunction;
  readonly errorsAlarm: Alarm;

  constructor(scope: Construct, id: string, props: RolloverJobProps) {
    super(scope, id);
    this.rollover = new ServiceFunction(this, 'Rollover', {
      entry: ROLLOVER_ENTRY,
      description: 'Daily job: recomputes the rolling-window counters of entities whose oldest day or month left the window',
      environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName },
      logRetention: props.logRetention,
      memorySize: 256,
      timeout: Duration.minutes(15),
    });
    grantTableAccess(this.rollover.role, props.table, 'rollover');
    // 00:05 UTC: a consumer batch started just before midnight has finished (see functions/jobs/rollover.ts).
    new Rule(this, 'RolloverSchedule', {
      description: `Slides the rolling windows (${ROLLING_PERIODS.join(', ')}) once a day`,
      schedule: Schedule.cron({ minute: '5', hour: '0' }),
      targets: [new LambdaFunction(this.rollover.function, { retryAttempts: 2 })],
    });
    this.errorsAlarm = new Alarm(this, 'RolloverErrorsAlarm', {
      alarmDescription: 'The daily rollover job failed: rankings of rolling windows still include days that left them.',
      metric: this.rollover.function.metricErrors({ period: Duration.hours(1), statistic: Stats.SUM }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.errorsAlarm.addAlarmAction(props.alarmAction);
    this.errorsAlarm.addOkAction(props.alarmAction);
  }
}
