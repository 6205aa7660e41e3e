/**
 * A nightly report from your own server: the content items with the most responses over
 * the last seven days, and one content set's stats for the week.
 *
 *   FEEDBACK_BASE_URL=https://<api>/v0 FEEDBACK_API_KEY=<viewer key> FEEDBACK_SET_ID=<set id> \
 *     npx tsx examples/weekly-report.ts
 */
import { ApiError, createClient, type AggregatedData } from '@feedback-service/client';

const client = createClient({
  baseUrl: process.env.FEEDBACK_BASE_URL ?? 'http://localhost:3000/v0',
  apiKey: process.env.FEEDBACK_API_KEY, // a viewer key is enough to read
  timeout: 5000,
});

function describeStats(stats: AggregatedData): string {
  const { data } = stats;
  switch (data.schema) {
    case 'yes-no':
      return `${data.counts[0]} yes, ${data.counts[1]} no`;
    case 'rating':
      return `mean rating ${data.summary}`;
    case 'reaction':
    case 'tagged-message':
      return `counts ${data.counts.join('/')}, mean sentiment ${data.summary ?? 0}`;
    default:
      return `${data.count} responses`;
  }
}

async function main() {
  // The most helpful pages: content items ranked by responses over the last 7 days.
  const top = await client.contents.top({ period: 'rolling7d', $size: 5 });
  console.log('Most answered pages, last 7 days:');
  top.forEach((item, index) => {
    console.log(`  ${index + 1}. ${item.metadata.title ?? item.key} (${item.stats.count} responses; ${describeStats(item.stats)})`);
  });

  // One content set's stats for the current week.
  const setId = process.env.FEEDBACK_SET_ID;
  if (setId) {
    try {
      const [set, week] = await Promise.all([client.sets.get(setId), client.sets.getStats(setId, { period: 'week' })]);
      console.log(`Set "${set.name}" (${set.schema}) this week: ${week.count} responses; ${describeStats(week)}`);
    } catch (error) {
      if (error instanceof ApiError && error.error === 'not-found') console.log(`No content set ${setId} in this account`);
      else throw error;
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ApiError ? `${error.error} (${error.status}): ${error.message}` : error);
  process.exit(1);
});
