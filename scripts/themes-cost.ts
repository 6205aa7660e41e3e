/**
 * The themes part of `npm run cost` (issue 40 §4, "When and at what cost"): what
 * `npm run bench:themes-job -- --write` measured (docs/bench-themes-job.json) in dollars per
 * 1,000 messages, at the prices and Lambda size given (scripts/cost-model.ts passes its
 * own; this module imports nothing of it, whose import runs the model).
 */
import { markdownTable } from './bench-lib';
import type { Measured, SizeResult } from './bench-themes-job';

export interface ThemesJobResults {
  date: string;
  sizes: SizeResult[];
}

interface Prices {
  lambdaArmGbSecond: number;
  lambdaRequestPerMillion: number;
  dynamoWriteRequestUnitPerMillion: number;
  dynamoReadRequestUnitPerMillion: number;
}

/** The themes job's function (lib/themes-job.ts). */
const THEMES_JOB_MEMORY_GB = 1769 / 1024;
/** Billed time per DynamoDB request the job waits for (the model's assumption for every function). */
const REQUEST_MS = 5;

const money = (value: number) => (value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`);
const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/** Dollars of one measured run: its units, and its CPU seconds plus its requests' waits as billed duration at the job's size. */
function runCost(run: Measured, prices: Prices): { seconds: number; dollars: number } {
  const seconds = run.cpuSeconds + (run.requests * REQUEST_MS) / 1000;
  const dollars =
    (run.write * prices.dynamoWriteRequestUnitPerMillion + run.read * prices.dynamoReadRequestUnitPerMillion) / 1e6 +
    seconds * THEMES_JOB_MEMORY_GB * prices.lambdaArmGbSecond;
  return { seconds, dollars };
}

export function themesCostSection(results: ThemesJobResults, prices: Prices): string {
  const rows = results.sizes.flatMap((size) =>
    (
      [
        ['a message imported (the first run)', size.firstRun, size.messages],
        ['a new message (a run after 50 of today)', size.newMessages, size.newMessages.count],
        ['a discovery again (daily, or after a curation), per message of the set', size.discovery, size.messages],
      ] as const
    ).map(([name, run, count]) => {
      const { seconds, dollars } = runCost(run, prices);
      return [
        String(size.messages),
        name,
        figure((run.write * 1000) / count),
        figure((run.read * 1000) / count),
        figure((run.cpuSeconds * 1000) / count),
        figure((seconds * 1000) / count),
        money((dollars * 1000) / count),
      ];
    }),
  );
  const largest = results.sizes[results.sizes.length - 1];
  const newMessage = runCost(largest.newMessages, prices).dollars / largest.newMessages.count;
  const daily = runCost(largest.discovery, prices).dollars / largest.messages;
  return [
    '### Themes (issue 40), per 1,000 messages',
    '',
    `\`npm run bench:themes-job\` (${results.date.slice(0, 10)}; the job's function: ${Math.round(THEMES_JOB_MEMORY_GB * 1024)} MB, billed as its CPU seconds plus ${REQUEST_MS} ms per DynamoDB request):`,
    '',
    markdownTable(['set size', 'per 1,000 of', 'WRU', 'RRU', 'CPU s', 'billed s', 'dollars'], rows, [true, false, true, true, true, true, true]),
    '',
    `So a message costs about ${money(newMessage * 1e6)} per million when it arrives (its day read again and its day records rewritten at the next run) and ${money(daily * 1e6)} per million messages kept for each day's discovery again; a themes call reads ${results.sizes.map((size) => `${size.themesCall.requests} requests and ${figure(size.themesCall.read)} RRU at ${size.messages.toLocaleString('en-US')} messages`).join(', ')}: the requests do not grow, and the read units grow with the day records only until these reach their bounds (100 phrases a day; 3 examples and 10 items a theme), not with the messages; and \`responses/create\` is unchanged (the job reads the counters' write counts, nothing on the write path).`,
    ...discoveryFit(results),
  ].join('\n');
}

/** Whether a discovery fits the job's one Lambda (<= 1,769 MB, <= 60 s at 20,000 messages): the largest it read, as measured. */
function discoveryFit(results: ThemesJobResults): string[] {
  const measured = results.sizes.filter((size) => size.discovery.messagesRead !== undefined && size.discovery.peakRssMb !== undefined);
  if (measured.length === 0) return [];
  const widest = measured.reduce((a, b) => ((b.discovery.messagesRead ?? 0) > (a.discovery.messagesRead ?? 0) ? b : a));
  const { messagesRead, cpuSeconds, seconds, peakRssMb } = widest.discovery;
  return [
    '',
    `A discovery reads the newest 20,000 messages (whole days, so a few more): at ${widest.messages.toLocaleString('en-US')} messages it read ${messagesRead?.toLocaleString('en-US')} in ${figure(cpuSeconds)} CPU seconds (${figure(seconds)} s wall on a shared machine), the bench process's peak resident set ${peakRssMb} MB: within one Lambda of ${Math.round(THEMES_JOB_MEMORY_GB * 1024)} MB and 60 s.`,
  ];
}
