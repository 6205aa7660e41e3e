/**
 * The module map of docs/architecture.md, checked by `npm run layers` (part of `npm test`):
 * each rule is one line of that map's "Knows nothing of" column, or one of the rules under it.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules that import each other cannot be read, tested or bundled one at a time.',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'lambda-code-stays-in-functions',
      severity: 'error',
      comment: 'Lambda bundles are built from functions/ and the pure shared/ only: the local host, the CDK app, the console and the tools are not deployed.',
      from: { path: '^functions/' },
      to: { path: '^(local|lib|bin|scripts|console|clients|test)/' },
    },
    {
      name: 'lambda-code-uses-runtime-packages',
      severity: 'error',
      comment: 'A Lambda bundle may only import packages of `dependencies` (devDependencies are not there in production).',
      from: { path: '^functions/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-is-pure',
      severity: 'error',
      comment: 'shared/ holds the pure catalogues both the server and the console read: it imports nothing of either.',
      from: { path: '^shared/' },
      to: { path: '^(functions|local|lib|bin|scripts|console|clients|test)/' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'functions/domain/ is pure logic: no store, no API, no I/O of its own.',
      from: { path: '^functions/domain/' },
      to: { path: '^functions/(api|handlers|operations|store|stream|webhooks|jobs|observability|secrets|reference-page)/' },
    },
    {
      name: 'secrets-know-only-the-domain',
      severity: 'error',
      comment: 'functions/secrets/ loads the service keys (environment, Secrets Manager) and seals with domain/sealing.ts: it knows nothing of the store, the API or the work it serves.',
      from: { path: '^functions/secrets/' },
      to: { path: '^functions/(api|handlers|operations|store|stream|webhooks|jobs|observability|reference-page)/' },
    },
    {
      name: 'store-knows-no-http',
      severity: 'error',
      comment: 'The store reads and writes items; answering HTTP is the API layer’s job.',
      from: { path: '^functions/store/' },
      to: { path: '^functions/(api|handlers|operations|stream|webhooks|jobs|reference-page)/' },
    },
    {
      name: 'operations-know-no-lambda',
      severity: 'error',
      comment: 'Domain operations take typed input and the store: no Lambda event, no middy, no handler.',
      from: { path: '^functions/operations/' },
      to: { path: '(^functions/(handlers|stream|jobs|reference-page)/|^functions/api/(adapter|lambda|lambda-entry|table-lambda)\\.ts$|^node_modules/(@middy|aws-lambda)/)' },
    },
    {
      name: 'background-work-knows-no-api',
      severity: 'error',
      comment: 'Stream consumers, the webhook engine and the jobs run without a request: they share observability/, not the API layer.',
      from: { path: '^functions/(stream|webhooks|jobs)/' },
      to: { path: '^functions/(api|handlers|reference-page)/' },
    },
    {
      name: 'mail-knows-not-its-callers',
      severity: 'error',
      comment:
        'functions/mail/ composes and sends mail for the jobs and operations that call it; it imports none of them, nor the API (what it says comes in as domain values).',
      from: { path: '^functions/mail/' },
      to: { path: '^functions/(api|handlers|operations|stream|jobs|webhooks|reference-page|unsubscribe)/' },
    },
    {
      name: 'webhook-engine-knows-not-its-callers',
      severity: 'error',
      comment:
        'functions/webhooks/ is called by the webhooks/* operations, the stream consumer and the sweeper job; it imports none of them (the events and the response view it posts live in domain/).',
      from: { path: '^functions/webhooks/' },
      to: { path: '^functions/(operations|stream|jobs)/' },
    },
    {
      name: 'console-talks-through-the-client',
      severity: 'error',
      comment: 'The console is a client like any other: the typed client and the public API, and the pure shared/ catalogues.',
      from: { path: '^console/src/' },
      to: { path: '^(functions|local|lib|bin|scripts|test)/' },
    },
    {
      name: 'console-reads-through-its-data-layer',
      severity: 'error',
      comment:
        'The console\'s query keys, queries and mutations live in console/src/data/, one module per resource; pages and components call its hooks (the session holds the cache).',
      from: { path: '^console/src/', pathNot: '^console/src/(data/|session\\.tsx$)' },
      to: { path: '(^|/)node_modules/@tanstack/react-query/' },
    },
    {
      name: 'console-build-serves-only',
      severity: 'error',
      comment: 'The console build and its serving rules know nothing of the server behind the API.',
      from: { path: '^console/[^/]+\\.ts$' },
      to: { path: '^(functions|local|bin|scripts|test)/' },
    },
    {
      name: 'cdk-loads-declarations-only',
      severity: 'error',
      comment: 'The CDK app reads operation declarations, not their code: `cdk synth` must not load middy, Powertools or ElectroDB.',
      from: { path: '^(lib|bin/app\\.ts)' },
      to: {
        path: '^functions/(handlers|operations|store/(entities|entity-store|dynamodb-clients|batch|items|counters|transactions|webhooks)|webhooks|jobs|observability|secrets)',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|cdk\\.out|\\.tmp|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['@feedback-service/source', 'import', 'require', 'node', 'default'] },
    combinedDependencies: false,
  },
};
