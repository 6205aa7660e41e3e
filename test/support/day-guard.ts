/**
 * Runs before each test file's modules load: a file that would start within DAY_GUARD_MS of
 * 00:00 UTC waits until that midnight has passed.
 *
 * The server reads the real clock: the counting consumer files a response into the rolling
 * windows of the day it counts it, and `day`, `week` and rolling periods are read as of the
 * day of the call. Tests create responses dated relative to today and then read those
 * periods, so a file running across midnight would compare two different days and fail
 * for no fault of the code (as a CI run once did). Period arithmetic across boundaries is
 * tested with fixed dates in the unit tests; this only keeps integration files on one day.
 * Injecting a clock into every server path would be the alternative; it would make the
 * server differ from what runs on Lambda.
 *
 * The wait is synchronous (Atomics.wait) because jest's setupFiles cannot be async and the
 * files read "now" when their modules load. It costs a run at most DAY_GUARD_MS, and only
 * when the run starts in the last minutes of a UTC day.
 */
const DAY_GUARD_MS = 4 * 60_000;
const DAY_MS = 86_400_000;

const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
if (untilMidnight <= DAY_GUARD_MS) {
  const waitMs = untilMidnight + 1_000;
  process.stderr.write(`${new Date().toISOString()}: waiting ${Math.ceil(waitMs / 1000)} s for 00:00 UTC before this test file (test/support/day-guard.ts)\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, waitMs);
}
