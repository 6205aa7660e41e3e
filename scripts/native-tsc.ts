import { dirname, join } from 'node:path';

/**
 * The command that runs TypeScript 7's compiler (the native one, installed as
 * `typescript-native` beside TypeScript 6, which dependency-cruiser needs), before its own
 * arguments. On one thread: on two cores its parallel checkers repeat each other's work and
 * spend more CPU for no less time (the server's project: 19.5 CPU s against 11.1).
 * package.json's `tsc:native` script is the same command, for the type checks.
 */
export const NATIVE_TSC: readonly string[] = [join(dirname(require.resolve('typescript-native/package.json')), 'bin', 'tsc'), '--singleThreaded'];
