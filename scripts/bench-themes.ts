/**
 * `npm run bench:themes`: theme discovery (functions/domain/themes) against the hand-labelled
 * evaluation set (test/fixtures/themes), per site, beside the plain TF-IDF + k-means baseline of
 * the same run; then discovery's time and memory at 20,000 messages (in a child process, so its
 * peak memory is its own).
 *
 *   npm run bench:themes
 *   npm run bench:themes -- --write     # stores the figures in docs/bench-themes.json
 *
 * Figures (issue 40, section 6): V-measure and adjusted Rand index against the gold labels
 * (`other` is one cluster on both sides); gold themes found (a gold theme of 8 or more messages
 * is found when one theme has precision >= 0.6 and recall >= 0.5 for it); the share of the gold
 * noise left in `other`; label quality (per theme, the share of its messages holding one of its
 * label's words, compared by stem; the mean over themes); the rising theme flagged (`isRising`:
 * the share of the last 7 days significantly above the share in the weeks before) and false
 * alarms (other themes flagged); the top rising phrase of the "no" messages on the rising page and the share of its
 * messages from the rising theme; time and memory per 1,000 messages.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { kmeans } from 'ml-kmeans';
import {
  analyseText,
  countsByTheme,
  type Discovery,
  discoverThemes,
  type PhraseMessage,
  seededRandom,
  isRising,
  standoutPhrases,
} from '../functions/domain/themes';
import {
  adjustedRandIndex,
  EVALUATION_END,
  EVALUATION_SITES,
  type EvaluationMessage,
  type EvaluationSite,
  loadEvaluationSite,
  NOISE,
  RISING,
  vMeasure,
} from './themes-evaluation';

const RESULTS = 'docs/bench-themes.json';
const DAY_MS = 86_400_000;
const FOUND_MIN_GOLD = 8;
const SCALE_MESSAGES = 20_000;

interface ClusteringFigures {
  /** Per gold theme of 8 or more messages: the theme with most of it, its precision and recall. */
  best: Record<string, { precision: number; recall: number }>;
  vMeasure: number;
  adjustedRand: number;
  found: string[];
  goldThemes: number;
  noiseInOther: number;
  labelQuality: number;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

function stemsOf(text: string): Set<string> {
  return new Set(analyseText(text).contentStems);
}

/** The figures of a clustering (`predicted`: a cluster name per message, `other` for none) with its labels. */
function clusteringFigures(messages: readonly EvaluationMessage[], predicted: readonly string[], labels: ReadonlyMap<string, string>): ClusteringFigures {
  const gold = messages.map((message) => message.gold);
  const { v } = vMeasure(gold, predicted);
  const goldSizes = new Map<string, number>();
  for (const label of gold) goldSizes.set(label, (goldSizes.get(label) ?? 0) + 1);
  const clusters = new Map<string, number[]>();
  predicted.forEach((cluster, i) => {
    if (cluster === NOISE) return;
    clusters.set(cluster, [...(clusters.get(cluster) ?? []), i]);
  });
  const eligible = [...goldSizes].filter(([label, size]) => label !== NOISE && size >= FOUND_MIN_GOLD).map(([label]) => label);
  const best: ClusteringFigures['best'] = {};
  for (const label of eligible) {
    for (const members of clusters.values()) {
      const hits = members.filter((i) => gold[i] === label).length;
      const recall = round3(hits / (goldSizes.get(label) as number));
      if (hits > 0 && recall > (best[label]?.recall ?? 0)) best[label] = { precision: round3(hits / members.length), recall };
    }
  }
  const found = eligible.filter((label) =>
    [...clusters.values()].some((members) => {
      const hits = members.filter((i) => gold[i] === label).length;
      return hits / members.length >= 0.6 && hits / (goldSizes.get(label) as number) >= 0.5;
    }),
  );
  const noise = messages.map((_, i) => i).filter((i) => gold[i] === NOISE);
  const qualities = [...clusters].map(([cluster, members]) => {
    const words = stemsOf(labels.get(cluster) ?? '');
    return members.filter((i) => [...stemsOf(messages[i].text)].some((stem) => words.has(stem))).length / members.length;
  });
  return {
    best,
    vMeasure: round3(v),
    adjustedRand: round3(adjustedRandIndex(gold, predicted)),
    found: found.sort(),
    goldThemes: eligible.length,
    noiseInOther: round3(noise.filter((i) => predicted[i] === NOISE).length / Math.max(1, noise.length)),
    labelQuality: round3(qualities.reduce((a, b) => a + b, 0) / Math.max(1, qualities.length)),
  };
}

function majorityGold(messages: readonly EvaluationMessage[], ids: readonly string[]): { gold: string; precision: number } {
  const byId = new Map(messages.map((message) => [message.id, message.gold]));
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(byId.get(id) as string, (counts.get(byId.get(id) as string) ?? 0) + 1);
  const [gold, count] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [NOISE, 0];
  return { gold, precision: round3(count / Math.max(1, ids.length)) };
}

function risingFigures(site: EvaluationSite, messages: readonly EvaluationMessage[], discovery: Discovery) {
  const end = Date.parse(EVALUATION_END);
  const inWindow = (message: EvaluationMessage, from: number, to: number) => {
    const at = Date.parse(message.createdAt);
    return at >= from && at < to;
  };
  const period = messages.filter((message) => inWindow(message, end - 7 * DAY_MS, end));
  const before = messages.filter((message) => inWindow(message, end - 14 * DAY_MS, end - 7 * DAY_MS));
  const now = countsByTheme(
    discovery.themes,
    period.map((message) => message.id),
  );
  const earlier = messages.filter((message) => Date.parse(message.createdAt) < end - 7 * DAY_MS);
  const history = countsByTheme(
    discovery.themes,
    earlier.map((message) => message.id),
  );
  const rising = discovery.themes
    .filter((theme) => isRising(now.get(theme.id) ?? 0, period.length, history.get(theme.id) ?? 0, earlier.length))
    .map((theme) => ({ label: theme.label, ...majorityGold(messages, theme.messageIds) }));
  const risingGold = RISING[site].gold;
  const onPage = (list: readonly EvaluationMessage[]) => list.filter((message) => message.page === RISING[site].page && message.tag === 'no');
  const asPhraseMessages = (list: readonly EvaluationMessage[]): PhraseMessage[] =>
    list.map((message) => ({ id: message.id, raw: message.text, text: analyseText(message.text) }));
  const [top] = standoutPhrases(asPhraseMessages(onPage(period)), asPhraseMessages(onPage(earlier)), { previous: asPhraseMessages(onPage(before)) });
  const goldOf = new Map(messages.map((message) => [message.id, message.gold]));
  return {
    flagged: rising.some((theme) => theme.gold === risingGold && theme.precision >= 0.5),
    falseAlarms: rising.filter((theme) => !(theme.gold === risingGold && theme.precision >= 0.5)).length,
    risingThemes: rising,
    topRisingPhrase: top
      ? { text: top.text, count: top.count, fromRisingTheme: round3(top.messageIds.filter((id) => goldOf.get(id) === risingGold).length / top.count) }
      : null,
  };
}

const BASELINE_STOP_WORDS = new Set(
  'a an the and or but if of to in on for with at by from is are was were be been it its this that i you he she we they my your our me not no do does did have has had so as can will just than then there here what which who how why when where'.split(
    ' ',
  ),
);

/**
 * The baseline the issue names: plain TF-IDF (lower-cased words, a short English stop list, no
 * stemming) and k-means (ml-kmeans, k-means++ seeding, fixed seed), k the number of gold themes
 * (noise included); every message in a cluster, labelled by its centroid's heaviest word.
 */
function tfidfKMeans(texts: readonly string[], k: number): { clusters: string[]; labels: Map<string, string> } {
  const documents = texts.map((text) => (text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).filter((word) => !BASELINE_STOP_WORDS.has(word)));
  const vocabulary = [...new Set(documents.flat())].sort();
  const column = new Map(vocabulary.map((word, i) => [word, i]));
  const df = new Map<string, number>();
  for (const words of documents) for (const word of new Set(words)) df.set(word, (df.get(word) ?? 0) + 1);
  const vectors = documents.map((words) => {
    const vector = new Array<number>(vocabulary.length).fill(0);
    for (const word of words) vector[column.get(word) as number] += Math.log((1 + texts.length) / (1 + (df.get(word) as number))) + 1;
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  });
  const result = kmeans(vectors, k, { seed: 40, initialization: 'kmeans++', maxIterations: 100 });
  const labels = new Map(result.centroids.map((centroid, c) => [`k${c}`, vocabulary[centroid.indexOf(Math.max(...centroid))] ?? '']));
  return { clusters: result.clusters.map((c) => `k${c}`), labels };
}

function siteFigures(site: EvaluationSite) {
  const messages = loadEvaluationSite(site);
  discoverThemes(messages.slice(0, 40)); // word vectors parsed, stemmers made, code compiled: outside the timing
  const started = performance.now();
  const cpu = process.cpuUsage();
  const discovery = discoverThemes(messages.map(({ id, text }) => ({ id, text })));
  const milliseconds = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const themeOf = new Map<string, string>();
  for (const theme of discovery.themes) for (const id of theme.messageIds) themeOf.set(id, theme.id);
  const predicted = messages.map((message) => themeOf.get(message.id) ?? NOISE);
  const labels = new Map(discovery.themes.map((theme) => [theme.id, theme.label]));
  const goldThemes = new Set(messages.map((message) => message.gold)).size;
  const baseline = tfidfKMeans(
    messages.map((message) => message.text),
    goldThemes,
  );
  return {
    site,
    messages: messages.length,
    goldThemes: goldThemes - 1,
    discovery: {
      ...clusteringFigures(messages, predicted, labels),
      themes: discovery.themes.length,
      ...risingFigures(site, messages, discovery),
      millisecondsPer1000: Math.round((milliseconds * 1000) / messages.length),
      cpuMillisecondsPer1000: Math.round((user + system) / messages.length),
      list: discovery.themes.map((theme) => ({
        label: theme.label,
        terms: theme.terms,
        count: theme.messageIds.length,
        ...majorityGold(messages, theme.messageIds),
      })),
    },
    baseline: clusteringFigures(messages, baseline.clusters, baseline.labels),
  };
}

/** 20,000 messages made from the set's texts, each varied (a word dropped, two letters swapped, a word added), with ids of their own. */
function scaleMessages(count: number): Array<{ id: string; text: string }> {
  const texts = EVALUATION_SITES.flatMap((site) => loadEvaluationSite(site).map((message) => message.text));
  const random = seededRandom(7);
  const additions = ['please', 'again', 'today', 'asap', 'thanks', '!!', 'seriously', 'since monday'];
  return Array.from({ length: count }, (_, i) => {
    const words = texts[Math.floor(random() * texts.length)].split(' ');
    if (words.length > 3 && random() < 0.4) words.splice(Math.floor(random() * words.length), 1);
    if (random() < 0.3) {
      const w = Math.floor(random() * words.length);
      const word = words[w];
      if (word.length > 4) {
        const at = 1 + Math.floor(random() * (word.length - 2));
        words[w] = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
      }
    }
    if (random() < 0.4) words.push(additions[Math.floor(random() * additions.length)]);
    return { id: `scale-${String(i).padStart(6, '0')}`, text: words.join(' ') };
  });
}

function scaleRun(count: number): void {
  const messages = scaleMessages(count);
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const discovery = discoverThemes(messages);
  const milliseconds = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const result = {
    messages: count,
    seconds: round3(milliseconds / 1000),
    millisecondsPer1000: Math.round((milliseconds * 1000) / count),
    cpuSeconds: round3((user + system) / 1e6),
    cpuMillisecondsPer1000: Math.round((user + system) / count),
    /** The peak above what the process held before discovery, per 1,000 messages. */
    mbPer1000: round3((process.resourceUsage().maxRSS / 1024 - before / 1024 / 1024) / (count / 1000)),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    rssBeforeMb: Math.round(before / 1024 / 1024),
    themes: discovery.themes.length,
    other: discovery.other.length,
  };
  console.log(JSON.stringify(result));
}

function main(): void {
  const { values } = parseArgs({
    options: { write: { type: 'boolean', default: false }, scale: { type: 'string' }, 'no-scale': { type: 'boolean', default: false } },
  });
  if (values.scale) {
    scaleRun(Number(values.scale));
    return;
  }
  const sites = EVALUATION_SITES.map(siteFigures);
  let scale: unknown = null;
  if (!values['no-scale']) {
    const child = spawnSync(process.execPath, [...process.execArgv, __filename, '--scale', String(SCALE_MESSAGES)], { encoding: 'utf8', maxBuffer: 1 << 24 });
    scale = child.status === 0 ? JSON.parse(child.stdout.trim().split('\n').pop() as string) : { error: child.stderr.slice(-2000) };
  }
  console.log(
    '| site | method | V-measure | ARI | found | noise in other | label quality | themes | rising flagged | false alarms | top rising phrase (from rising theme) | ms / 1,000 |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { site, discovery, baseline } of sites) {
    const phrase = discovery.topRisingPhrase ? `"${discovery.topRisingPhrase.text}" (${discovery.topRisingPhrase.fromRisingTheme})` : '-';
    console.log(
      `| ${site} | discovery | ${discovery.vMeasure} | ${discovery.adjustedRand} | ${discovery.found.length}/${discovery.goldThemes} | ${discovery.noiseInOther} | ${discovery.labelQuality} | ${discovery.themes} | ${discovery.flagged} | ${discovery.falseAlarms} | ${phrase} | ${discovery.millisecondsPer1000} (${discovery.cpuMillisecondsPer1000}) |`,
    );
    console.log(
      `| ${site} | TF-IDF + k-means | ${baseline.vMeasure} | ${baseline.adjustedRand} | ${baseline.found.length}/${baseline.goldThemes} | ${baseline.noiseInOther} | ${baseline.labelQuality} | | | | | |`,
    );
  }
  for (const { site, discovery, baseline } of sites) {
    const line = (figures: ClusteringFigures) =>
      Object.entries(figures.best)
        .map(([gold, { precision, recall }]) => `${gold} ${precision}/${recall}`)
        .join(', ');
    console.log(`\n${site}: per gold theme, the theme with most of it (precision/recall)\n  discovery: ${line(discovery)}\n  baseline:  ${line(baseline)}`);
    console.log(`${site}: themes (label | terms | count | majority gold, precision)`);
    for (const theme of discovery.list) console.log(`  ${theme.label} | ${theme.terms.join(', ')} | ${theme.count} | ${theme.gold} ${theme.precision}`);
  }
  console.log(`\nscale: ${JSON.stringify(scale)}`);
  if (values.write) {
    writeFileSync(RESULTS, `${JSON.stringify({ date: new Date().toISOString(), sites, scale }, null, 2)}\n`);
    console.log(`written to ${RESULTS}`);
  }
}

main();
