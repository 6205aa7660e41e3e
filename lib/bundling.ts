/** How every function is bundled; `npm run bench:bundles` measures with the same settings. */
export const BUNDLE_TARGET = 'node22';
/** The nodejs22.x runtime provides AWS SDK v3; everything else is bundled. */
export const BUNDLE_EXTERNALS = ['@aws-sdk/*'];
