import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag (v3) findings this stack accepts on purpose, each with the reason recorded in
 * the synthesized validation report. cdk-nag 3 reports through CDK's policy-validation
 * plugins, so acknowledgements go through `Validations.of(scope).acknowledge()` (the v2
 * `NagSuppressions` API no longer exists). Keep every reason specific to this service.
 */
export const NAG_REASONS = {
  publicApi:
    'The API is intentionally public: anonymous widget operations must be callable from any site, and protected operations ' +
    'authenticate with the "Authorization: API-KEY <key>" header, which every handler verifies against the table.',
  publicApiNoCognito:
    'The API is not behind a Cognito authorizer: anonymous widget calls must pass, servers send API keys, and people send ' +
    "OpenID Connect Bearer tokens (this stack's user pool or the operator's own provider) that every handler verifies itself " +
    '(issuer, audience, signature) before it reads the membership; an authorizer would reject the anonymous calls.',
  requestValidation:
    'Every handler validates its JSON argument array with the zod tuple declared in the operation registry and enforces a ' +
    '64 KiB body limit; API Gateway models would duplicate those schemas and drift from them.',
  originVerifyRotation:
    'The origin-verify secret is resolved into the CloudFront origin header and the web ACL rule at deploy time, so a ' +
    'rotation Lambda could not update them; it is rotated by redeploying after a new value is put in the secret (docs/scaling.md).',
  edgeGeo:
    'Widgets are embedded on sites whose visitors come from anywhere, and the console serves site owners anywhere; restricting ' +
    'countries would silently drop feedback. Abuse is bounded per visitor address by the web ACL on the API stage instead.',
  edgeWaf:
    'The web ACL is REGIONAL, on the API Gateway stage behind this distribution, so the stack needs no us-east-1 resources ' +
    'or custom resources; every request that reaches the API passes it, and the only answers served from the edge cache are ' +
    "public widget counts (docs/scaling.md). The default behaviour serves the console's static build, which holds no data.",
  edgeLogging:
    'Every request that reaches the API is in the stage access log and the web ACL metrics; edge-cache hits are public widget ' +
    "counts or the console's static files. Standard logs would add an ACL-enabled S3 bucket per deployment; operators who " +
    'need them can enable them.',
  edgeTls:
    'The distribution serves the default *.cloudfront.net certificate, whose viewer policy CloudFront fixes; a custom domain ' +
    'with an ACM certificate (us-east-1) lets operators set TLSv1.2_2021, documented in docs/scaling.md.',
  apiGatewayLogsRole:
    'API Gateway needs the account-level CloudWatch role to write the access and execution logs of the v0 stage; ' +
    'AmazonAPIGatewayPushToCloudWatchLogs is the AWS managed policy made for exactly that role.',
  nodeRuntime:
    'The functions are built, tested and pinned for the nodejs22.x runtime (esbuild target node22); moving to a newer ' +
    'Node.js runtime is a deliberate upgrade, not an automatic one.',
  tableIndexes:
    'The table\'s global secondary indexes (gsi1..gsi3) are queried by ElectroDB access patterns; "<table arn>/index/*" ' +
    "scopes the same actions to this one table's indexes only.",
  listStreams:
    'dynamodb:ListStreams (added by the DynamoDB event source) does not support resource-level permissions, so it can only ' +
    'be granted on "*"; the stream read actions themselves are scoped to this table\'s stream ARN.',
  cursorSecretRotation:
    'The secret only seals paging cursors (AES-256-GCM); nothing is stored under it. Rotating it invalidates the cursors of ' +
    'lists being paged at that moment, so it is rotated by hand (put a new random value) rather than on a schedule with a ' +
    'rotation Lambda function.',
  dlqHasNoDlq:
    'This queue is itself the on-failure destination (dead-letter queue) of the stream consumer; a queue behind it would ' +
    'only move the same failed-batch records one hop further. An alarm fires on its first message.',
  mailDlqHasNoDlq:
    'This queue is itself the dead-letter queue of the function applying SES bounce and complaint events (its SNS ' +
    'subscription and its asynchronous invocations); a queue behind it would only move the same events one hop further. ' +
    'An alarm fires on its first message.',
  mailTokenKeyRotation:
    "The secret signs the mails' unsubscribe links, which must keep working for at least a year after a mail is sent; a " +
    'rotation would void every link already mailed, so it is rotated by hand (put a new random value) only when it leaked.',
  webhookKeyRotation:
    'The secret is the key that seals webhook signing secrets stored in the table; rotating it means re-encrypting every ' +
    'stored secret, which automatic rotation cannot do. Customers rotate their own signing secrets with webhooks/rotateSecret.',
  consoleBucketLogs:
    'The console bucket holds only the public build of the console (no user data) and is read only by CloudFront through ' +
    'origin access control; S3 server access logs would record nothing but CloudFront fetching those files.',
  bucketDeploymentRuntime:
    'The BucketDeployment custom resource of aws-cdk-lib ships its own Lambda runtime (with the AWS CLI layer); its ' +
    'runtime is chosen by aws-cdk-lib and moves with CDK upgrades.',
  bucketDeploymentRole:
    "aws-cdk-lib's BucketDeployment custom resource (it copies the console's files at deploy time): AWSLambdaBasicExecutionRole " +
    'for its logs, S3 read/write/delete actions on the console bucket and read on the CDK asset bucket only, and ' +
    'cloudfront:CreateInvalidation, which supports no resource-level scoping.',
  cognitoMfaOptional:
    "MFA is optional (TOTP) rather than required: people who join through an account's invitations set it up themselves, " +
    'and threat protection (Plus feature plan, enforced) challenges risky sign-ins; an operator who wants it for everyone ' +
    'sets the pool to required.',
} as const;

export type NagReason = keyof typeof NAG_REASONS;

/** Acknowledge one cdk-nag rule (or one finding, `Rule[finding]`) on a construct and its children. */
export function acknowledgeNag(scope: IConstruct, id: string, reason: NagReason): void {
  Validations.of(scope).acknowledge({ id, reason: NAG_REASONS[reason] });
}
