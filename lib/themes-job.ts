import { Duration } from 'aws-cdk-lib';
import { type Alarm, ComparisonOperator, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { minuteJob, type MinuteJobProps } from './minute-job';
import { operatorAlarm } from './operator-alarm';
import { THEMES_ENTRY } from './paths';
import type { ServiceFunction } from './service-function';

export type ThemesJobProps = MinuteJobProps;

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
    // One run at a time: two would read and write the same sets' messages.
    const { job, errorsAlarm } = minuteJob(this, props, {
      name: 'Themes',
      entry: THEMES_ENTRY,
      description: "Every minute: places new messages in their themes and phrases, and discovers a set's themes again when enough changed",
      scheduleDescription: 'Places new messages in their themes and discovers themes again when due',
      errorsAlarmDescription: 'The themes job failed 5 minutes in a row: new messages are not reaching their themes.',
      memorySize: 1769,
      access: 'themes',
    });
    this.themes = job;
    this.errorsAlarm = errorsAlarm;
    this.durationAlarm = operatorAlarm(this, 'ThemesDurationAlarm', props.alarmAction, {
      alarmDescription: 'A themes run took over 4 minutes (its timeout is 5): a set has outgrown one discovery.',
      metric: this.themes.function.metricDuration({ period: Duration.minutes(15), statistic: Stats.MAXIMUM }),
      threshold: 240_000,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
    });
  }
}
