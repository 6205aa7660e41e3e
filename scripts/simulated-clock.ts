/**
 * A simulated clock for a bench that lives through days in minutes (scripts/bench-alerts-null.ts):
 * imported first, before any of the service's modules, it replaces the global `Date` with one
 * whose "now" (`new Date()`, `Date.now()`) runs at real speed from a time the bench sets, so the
 * import, the counting consumer's change records, the alerts job and the records they write
 * all see the simulated time, as they would see the real one. Timers keep real time.
 */
const RealDate = Date;
let offsetMs = 0;

class SimulatedDate extends RealDate {
  constructor(...args: ConstructorParameters<DateConstructor> | []) {
    if (args.length === 0) super(RealDate.now() + offsetMs);
    else super(...(args as ConstructorParameters<DateConstructor>));
  }
  static override now(): number {
    return RealDate.now() + offsetMs;
  }
}

globalThis.Date = SimulatedDate as DateConstructor;

/** Moves the simulated time forward to `at` (ms since the epoch); never back, as a clock would not. */
export function advanceClockTo(at: number): void {
  if (at > RealDate.now() + offsetMs) offsetMs = at - RealDate.now();
}
