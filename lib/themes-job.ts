import { Duration } from 'aws-cdk-lib';
import { type Alarm, ComparisonOperator, Stats, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { operatorAlarm } from './operator-alarm';
import { THEMES_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { grantTableAccess } from './table-access';

export interface ThemesJobProps {
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
}

/**
 * The themes job (functions/jobs/themes.ts): every minute, one run at a time; it places new
 * messages in their themes and discovers a set's themes again when due. 1,769 MB is one full
 * vCPU: a discovery of 20,000 messages fits its 60 s within the 5-minute timeout
 * (docs/bench-themes-job.json). Its alarms: errors, and runs near the timeout.
 */
export class ThemesJob extends Construct {
  readonly themes: ServiceFunction;
  readonly errorsAlarm: Alarm;
  readonly durationAlarm: Alarm;

  constructor(scope: Construct, id: string, props: ThemesJobProps) {
    super(scope, id);
    this.themes = new ServiceFunction(this, 'Themes', {
      entry: THEMES_ENTRY,
      description: "Every minute: places new messages in their themes and phrases, and discovers a set's themes again when enough changed",
      environment: { TABLE_NAME: props.table.tableName, POWERTOOLS_SERVICE_NAME: props.serviceName },
      logRetention: props.logRetention,
      memorySize: 1769,
      timeout: Duration.minutes(5),
      // One run at a time: two would read and write the same sets' messages.
      reservedConcurrentExecutions: 1,
    });
    grantTableAccess(this.themes.role, props.table, 'themes');
    new Rule(this, 'ThemesSchedule', {
      description: 'Places new messages in their themes and discovers themes again when due',
      schedule: Schedule.rate(Duration.minutes(1)),
      // No retries: the next minute's run starts from the same checkpoint.
      targets: [new LambdaFunction(this.themes.function, { retryAttempts: 0 })],
    });
    this.errorsAlarm = operatorAlarm(this, 'ThemesErrorsAlarm', props.alarmAction, {
      alarmDescription: 'The themes job failed 5 minutes in a row: new messages are not reaching their themes.',
      metric: this.themes.function.metricErrors({ period: Duration.minutes(5), statistic: Stats.SUM }),
      threshold: 5,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
    this.durationAlarm = operatorAlarm(this, 'ThemesDurationAlarm', props.alarmAction, {
      alarmDescription: 'A themes run took over 4 minutes (its timeout is 5): a set has outgrown one discovery.',
      metric: this.themes.function.metricDuration({ period: Duration.minutes(15), statistic: Stats.MAXIMUM }),
      threshold: 240_000,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
  }
}
