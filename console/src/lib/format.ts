import { format, isValid, parse } from 'date-fns';

const counts = new Intl.NumberFormat('en');
const decimals = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

export function formatCount(value: number): string {
  return counts.format(value);
}

export function formatDecimal(value: number): string {
  return decimals.format(value);
}

/** "42%" of a part of a whole ("0%" of nothing). */
export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  const percent = (part / whole) * 100;
  return `${percent > 0 && percent < 1 ? percent.toFixed(1) : Math.round(percent)}%`;
}

/** A change of a share in percentage points: 0.82 to 0.70 is "12 points"; under one, "less than 1 point". */
export function formatPoints(delta: number): string {
  const points = Math.abs(delta) * 100;
  return points < 1 && points > 0 ? 'less than 1 point' : plural(Math.round(points), 'point');
}

export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/** A signed score in [-1, 1]: "+0.42". */
export function formatScore(value: number): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(2)}`;
}

/** A moment in the viewer's time zone: "16 Nov 2026, 14:05". */
export function formatDateTime(iso: string): string {
  return format(new Date(iso), 'd MMM yyyy, HH:mm');
}

export function formatDate(iso: string): string {
  return format(new Date(iso), 'd MMM yyyy');
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * Dates a person types in a filter, read in the one convention the console shows dates in
 * ("24 Nov 2026"; the month's full name and ISO "2026-11-24" are read too), as the
 * `YYYY-MM-DD` of that day; undefined when the text names no day.
 */
export function parseDay(text: string): string | undefined {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  for (const pattern of ['d MMM yyyy', 'd MMMM yyyy', 'yyyy-MM-dd']) {
    const day = parse(trimmed, pattern, new Date(2000, 0, 1));
    if (isValid(day) && day.getFullYear() >= 1000) return format(day, 'yyyy-MM-dd');
  }
  return undefined;
}

/** A `YYYY-MM-DD` day as the console writes dates: "24 Nov 2026". */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return format(new Date(year, month - 1, date), 'd MMM yyyy');
}

/** The start of a `YYYY-MM-DD` day in the viewer's time zone (filters name local days), `plusDays` later, as ISO. */
function dayStart(day: string, plusDays = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date + plusDays).toISOString();
}

/**
 * A filter's "from" and "to" days (`YYYY-MM-DD`, '' for none) as a list's `from` and `to`:
 * "to" names the last day included, and the API's `to` is exclusive, so it is the start of
 * the day after.
 */
export function dayRangeQuery(from: string, to: string): { from?: string; to?: string } {
  return { ...(from ? { from: dayStart(from) } : {}), ...(to ? { to: dayStart(to, 1) } : {}) };
}
