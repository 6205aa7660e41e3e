/**
 * The API stage's access log line: one JSON object per request, as API Gateway fills in
 * these `$context` variables. The caller's address is left out: behind the distribution it
 * is CloudFront's, and no visitor address is stored (docs/api.md, "A person's data": logs). Every call is here,
 * so the functions log only failures (functions/api/adapter.ts); `npm run cost` prices the line.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  time: '$context.requestTimeEpoch',
  method: '$context.httpMethod',
  path: '$context.resourcePath',
  status: '$context.status',
  bytes: '$context.responseLength',
  ms: '$context.responseLatency',
  integrationMs: '$context.integrationLatency',
  waf: '$context.wafResponseCode',
} as const;
