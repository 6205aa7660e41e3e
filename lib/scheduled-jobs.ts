import { NestedStack } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { AlertsJob } from './alerts-job';
import { RankerJob } from './ranker-job';

export interface ScheduledJobsProps {
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
  /** The console's base URL: alerts link the entity's page there (none when the stack has no console). */
  readonly consoleUrl?: string;
}

/**
 * The ranker, the alerts job and the weekly digest in a nested stack of their own
 * (docs/architecture.md, "Room under CloudFormation's limit"): each job is a function, its
 * log group, role, policy, schedule, invoke permission and alarm, about twenty resources the
 * parent need not hold. Only jobs that tolerate two runs at once are here: moving a job
 * recreates its function, and during that update the old and the new schedule may both fire
 * once (the ranker and the alerts job write by condition; a digest is recorded once a week).
 * The themes job, kept to one run at a time, stays in the parent.
 */
export class ScheduledJobs extends NestedStack {
  readonly rankerJob: RankerJob;
  readonly alertsJob: AlertsJob;

  constructor(scope: Construct, id: string, props: ScheduledJobsProps) {
    super(scope, id, { description: "The feedback service's scheduled jobs: the ranker, the alerts job and the weekly digest" });
    const common = { table: props.table, logRetention: props.logRetention, serviceName: props.serviceName, alarmAction: props.alarmAction };
    this.rankerJob = new RankerJob(this, 'Rankings', common);
    this.alertsJob = new AlertsJob(this, 'Alerts', { ...common, ...(props.consoleUrl ? { consoleUrl: props.consoleUrl } : {}) });
  }
}
