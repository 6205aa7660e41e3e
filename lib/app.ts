import { App, Validations, type AppProps } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { FeedbackStack, type FeedbackStackProps } from './feedback-stack';

export const STACK_NAME = 'FeedbackService';

export interface FeedbackAppOptions extends Pick<AppProps, 'outdir' | 'context' | 'builtinCloudFormationValidation'> {
  readonly stackProps?: Omit<FeedbackStackProps, 'env'>;
}

/**
 * The CDK app: the FeedbackService stack checked by cdk-nag's AWS Solutions pack. Shared
 * by bin/app.ts and the infrastructure tests, so both synthesize the very same app.
 * cdk-nag 3 runs as a CDK policy-validation plugin (not an Aspect): an unacknowledged
 * error finding fails the synthesis.
 */
export function createFeedbackApp({ stackProps, ...appProps }: FeedbackAppOptions = {}): { app: App; stack: FeedbackStack } {
  const app = new App(appProps);
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const region = process.env.CDK_DEFAULT_REGION;
  const stack = new FeedbackStack(app, STACK_NAME, {
    ...stackProps,
    description: 'Self-hostable feedback-collection service (API Gateway, Lambda, DynamoDB)',
    env: account || region ? { account, region } : undefined,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack };
}
