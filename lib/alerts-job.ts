import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, Stats, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { operatorAlarm } from './operator-alarm';
import { ALERTS_ENTRY, DIGEST_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { grantTableAccess } from './table-access';

export interface AlertsJobProps {
  readonly table: ITable;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  readonly alarmAction: IAlarmAction;
  /** The console's base URL: alerts and digests link the entity's page there (none when the stack has no console). */
  readonly consoleUrl?: string;
}

/**
 * The alerts job (functions/jobs/alerts.ts), every hour, and the weekly digest
 * (functions/jobs/digest.ts), Monday at 08:00 UTC; an error alarm each.
 */
export class AlertsJob extends Construct {
  readonly alerts: ServiceFunction;
  readonly digest: ServiceFunction;

  constructor(scope: Construct, id: string, props: AlertsJobProps) {
    super(scope, id);
    const environment = {
      TABLE_NAME: props.table.tableName,
      POWERTOOLS_SERVICE_NAME: props.serviceName,
      ...(props.consoleUrl ? { CONSOLE_URL: props.consoleUrl } : {}),
    };
    this.alerts = new ServiceFunction(this, 'Alerts', {
      entry: ALERTS_ENTRY,
      description:
        'Every hour: raises an alert for each item or set whose last 7 days are significantly worse than the 28 days before them, and mails the alerts',
      environment,
      logRetention: props.logRetention,
      memorySize: 256,
      timeout: Duration.minutes(10),
    });
    grantTableAccess(this.alerts.role, props.table, 'alerts');
    new Rule(this, 'AlertsSchedule', {
      description: 'Evaluates the items and sets with responses lately for alerts',
      schedule: Schedule.rate(Duration.hours(1)),
      // No retries: the next hour's run starts from the same checkpoint.
      targets: [new LambdaFunction(this.alerts.function, { retryAttempts: 0 })],
    });

    this.digest = new ServiceFunction(this, 'Digest', {
      entry: DIGEST_ENTRY,
      description: "Monday 08:00 UTC: sends each project's weekly digest to the webhooks and the members that ask for it",
      environment,
      logRetention: props.logRetention,
      memorySize: 256,
      timeout: Duration.minutes(15),
    });
    grantTableAccess(this.digest.role, props.table, 'alerts');
    new Rule(this, 'DigestSchedule', {
      description: 'Sends the weekly digests',
      schedule: Schedule.cron({ weekDay: 'MON', hour: '8', minute: '0' }),
      // A retry sends nothing twice: a project's digest is recorded once per week.
      targets: [new LambdaFunction(this.digest.function, { retryAttempts: 2 })],
    });

    for (const [name, job, what] of [
      ['AlertsErrorsAlarm', this.alerts, 'The alerts job failed in the last two hours: alerts are not being raised.'],
      ['DigestErrorsAlarm', this.digest, "The weekly digest job failed: this week's digests may not have been sent."],
    ] as const) {
      operatorAlarm(this, name, props.alarmAction, {
        alarmDescription: what,
        metric: job.function.metricErrors({ period: Duration.hours(2), statistic: Stats.SUM }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
  }
}
