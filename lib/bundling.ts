/** How every function is bundled; `npm run bench:bundles` measures with the same settings. */
export const BUNDLE_TARGET = 'node22';
/** The nodejs22.x runtime provides AWS SDK v3; everything else is bundled. */
export const BUNDLE_EXTERNALS = ['@aws-sdk/*'];

/**
 * The same settings as esbuild options, for the scripts that bundle as the stack does
 * (bench:bundles, the cold-start bench); lib/service-function.ts passes them to CDK's
 * NodejsFunction, whose option names differ.
 */
export const BUNDLE_BUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: BUNDLE_TARGET,
  minify: true,
  external: BUNDLE_EXTERNALS,
  metafile: true,
  logLevel: 'error',
} as const;
