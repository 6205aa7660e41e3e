import { format } from 'date-fns';

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
