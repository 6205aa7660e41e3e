import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { minuteJob, type MinuteJobProps } from './minute-job';
import { RANKER_ENTRY } from './paths';
import type { ServiceFunction } from './service-function';

export type RankerJobProps = MinuteJobProps;

/**
 * The ranker (functions/jobs/ranker.ts): the top lists, refreshed every minute, one run at a
 * time (a run that overlaps the next would recount the same lists); its error alarm.
 */
export class RankerJob extends Construct {
  readonly ranker: ServiceFunction;
  readonly errorsAlarm: Alarm;

  constructor(scope: Construct, id: string, props: RankerJobProps) {
    super(scope, id);
    const { job, errorsAlarm } = minuteJob(this, props, {
      name: 'Ranker',
      entry: RANKER_ENTRY,
      description: 'Every minute: recounts the sets and items whose counts changed and rewrites their top lists',
      scheduleDescription: 'Refreshes the top lists from the sets and items whose counts changed',
      errorsAlarmDescription: 'The ranker failed 5 minutes in a row: rankings (sets/top, contents/top) are falling behind the counts.',
      memorySize: 256,
      access: 'ranker',
    });
    this.ranker = job;
    this.errorsAlarm = errorsAlarm;
  }
}
