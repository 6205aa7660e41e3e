import { Alarm, type AlarmProps, type IAlarmAction, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';

/**
 * An alarm for the operator: `action` (the stack's alarm topic) hears both when it fires and
 * when it clears, and a metric with no data (a function that did not run, a queue never
 * written) is not a failure.
 */
export function operatorAlarm(scope: Construct, id: string, action: IAlarmAction, props: Omit<AlarmProps, 'treatMissingData'>): Alarm {
  const alarm = new Alarm(scope, id, { ...props, treatMissingData: TreatMissingData.NOT_BREACHING });
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}
