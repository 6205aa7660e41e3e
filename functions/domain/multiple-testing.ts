import type padjustFunction from '@stdlib/stats-padjust';

/**
 * Many tests at once (docs/api.md "Alerts"): the Benjamini-Hochberg step-up procedure, which
 * keeps the false discovery rate (the expected share of false ones among the hypotheses it
 * rejects) at or below `level` when the p-values are independent or positively dependent
 * (Benjamini & Hochberg 1995; Benjamini & Yekutieli 2001, PRDS). Pure; the adjusted
 * p-values come from stdlib's maintained `padjust` (R's `p.adjust(method = "BH")`).
 */

/** Loaded at first use, like statistics.ts' distributions: only the alerts job decides anything with it. */
let padjust: typeof padjustFunction | undefined;

/** What the procedure says of one p-value. */
export interface Discovery {
  /** Whether its hypothesis is rejected (a discovery). */
  rejected: boolean;
  /** Its Benjamini-Hochberg adjusted p-value: the smallest level at which it would be rejected. */
  adjustedPValue: number;
}

export interface Discoveries {
  /** One per p-value, in the order given. */
  each: Discovery[];
  /**
   * The step-up threshold: k * level / m, with k the number rejected and m the number of
   * p-values; every rejected p-value is at or below it, every other one above it. 0 when
   * none is rejected.
   */
  threshold: number;
}

/**
 * The Benjamini-Hochberg procedure at `level` over `pValues`: with p(1) <= ... <= p(m), the
 * largest k with p(k) <= k * level / m, and the k smallest are rejected. Equivalently, a
 * hypothesis is rejected when its adjusted p-value is at most `level`.
 */
export function benjaminiHochberg(pValues: readonly number[], level: number): Discoveries {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must lie strictly between 0 and 1, got ${level}`);
  if (pValues.length === 0) return { each: [], threshold: 0 };
  padjust ??= require('@stdlib/stats-padjust') as typeof padjustFunction;
  const adjusted = padjust([...pValues], 'bh');
  const each = adjusted.map((adjustedPValue) => ({ rejected: adjustedPValue <= level, adjustedPValue }));
  const rejected = each.filter((discovery) => discovery.rejected).length;
  return { each, threshold: (rejected * level) / pValues.length };
}
