/**
 * What `npm run bench:themes` measures discovery with: the hand-labelled evaluation set
 * (test/fixtures/themes/*.tsv, described in its README) and clustering scores against gold
 * labels. No npm package computes V-measure or the adjusted Rand
 * index in JavaScript, so both are written here (test/unit/themes-evaluation.test.ts checks them
 * against scikit-learn's documented examples).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EvaluationMessage {
  id: string;
  gold: string;
  tag: 'yes' | 'no';
  page: string;
  createdAt: string;
  text: string;
}

export const EVALUATION_SITES = ['docs', 'shop', 'app'] as const;
export type EvaluationSite = (typeof EVALUATION_SITES)[number];
/** The gold label of noise. */
export const NOISE = 'other';
/** The set's last instant (exclusive): the rising theme rises in the 7 days before it. */
export const EVALUATION_END = '2026-06-29T00:00:00.000Z';
export const RISING: Record<EvaluationSite, { gold: string; page: string }> = {
  docs: { gold: 'code-broken', page: '/docs/quickstart' },
  shop: { gold: 'charged-twice', page: '/help/payments' },
  app: { gold: 'crash', page: '/app/home' },
};

export function loadEvaluationSite(site: EvaluationSite, directory = join(__dirname, '..', 'test', 'fixtures', 'themes')): EvaluationMessage[] {
  const [header, ...lines] = readFileSync(join(directory, `${site}.tsv`), 'utf8')
    .trimEnd()
    .split('\n');
  const columns = header.split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    const row = Object.fromEntries(columns.map((column, i) => [column, cells[i]]));
    return row as unknown as EvaluationMessage;
  });
}

function entropy(counts: Iterable<number>, n: number): number {
  let sum = 0;
  for (const count of counts) if (count > 0) sum -= (count / n) * Math.log(count / n);
  return sum;
}

function contingency(truth: readonly string[], predicted: readonly string[]) {
  const table = new Map<string, Map<string, number>>();
  const classes = new Map<string, number>();
  const clusters = new Map<string, number>();
  truth.forEach((label, i) => {
    const cluster = predicted[i];
    const row = table.get(label) ?? new Map<string, number>();
    row.set(cluster, (row.get(cluster) ?? 0) + 1);
    table.set(label, row);
    classes.set(label, (classes.get(label) ?? 0) + 1);
    clusters.set(cluster, (clusters.get(cluster) ?? 0) + 1);
  });
  return { table, classes, clusters };
}

/** Rosenberg and Hirschberg's V-measure (2007), beta = 1: with homogeneity and completeness. */
export function vMeasure(truth: readonly string[], predicted: readonly string[]): { homogeneity: number; completeness: number; v: number } {
  const n = truth.length;
  const { table, classes, clusters } = contingency(truth, predicted);
  const hClass = entropy(classes.values(), n);
  const hCluster = entropy(clusters.values(), n);
  let hClassGivenCluster = 0;
  let hClusterGivenClass = 0;
  for (const row of table.values()) {
    for (const [cluster, count] of row) {
      hClassGivenCluster -= (count / n) * Math.log(count / (clusters.get(cluster) as number));
    }
    const classTotal = [...row.values()].reduce((a, b) => a + b, 0);
    for (const count of row.values()) hClusterGivenClass -= (count / n) * Math.log(count / classTotal);
  }
  const homogeneity = hClass === 0 ? 1 : 1 - hClassGivenCluster / hClass;
  const completeness = hCluster === 0 ? 1 : 1 - hClusterGivenClass / hCluster;
  const v = homogeneity + completeness === 0 ? 0 : (2 * homogeneity * completeness) / (homogeneity + completeness);
  return { homogeneity, completeness, v };
}

/** Hubert and Arabie's adjusted Rand index (1985). */
export function adjustedRandIndex(truth: readonly string[], predicted: readonly string[]): number {
  const n = truth.length;
  const pairs = (k: number) => (k * (k - 1)) / 2;
  const { table, classes, clusters } = contingency(truth, predicted);
  let index = 0;
  for (const row of table.values()) for (const count of row.values()) index += pairs(count);
  const sumClasses = [...classes.values()].reduce((sum, count) => sum + pairs(count), 0);
  const sumClusters = [...clusters.values()].reduce((sum, count) => sum + pairs(count), 0);
  const expected = (sumClasses * sumClusters) / pairs(n);
  const maximum = (sumClasses + sumClusters) / 2;
  if (maximum === expected) return 1;
  return (index - expected) / (maximum - expected);
}
