import * as z from 'zod';
import { ALERT_ENTITIES, MAX_FALSE_DISCOVERY_RATE, MIN_FALSE_DISCOVERY_RATE } from '../domain/alerts';
import { SCHEMAS } from '../domain/schemas';
import { DEFAULT_PAGE_SIZE, id, instant, MAX_PAGE_SIZE } from './models';
import { cursor } from './response-models';

/* Arguments */

export const AlertListModel = z
  .strictObject({
    projectId: id.optional(),
    contentSetId: id.optional(),
    $size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    cursor: cursor.optional(),
  })
  .meta({ id: 'AlertListModel', description: "Which alerts to list: the account's, or a project's or a content set's." });
export type AlertListModel = z.infer<typeof AlertListModel>;

export const AccountAlertSettingsInputModel = z
  .strictObject({ falseDiscoveryRate: z.number().min(MIN_FALSE_DISCOVERY_RATE).max(MAX_FALSE_DISCOVERY_RATE) })
  .meta({
    id: 'AccountAlertSettingsInput',
    description: `The account's false discovery rate, ${MIN_FALSE_DISCOVERY_RATE} to ${MAX_FALSE_DISCOVERY_RATE}: the expected share of false alerts among those one day's evaluation raises (docs/api.md "Alerts").`,
  });
export type AccountAlertSettingsInputModel = z.infer<typeof AccountAlertSettingsInputModel>;

export const DigestQueryModel = z
  .strictObject({ reference: instant.optional() })
  .meta({ id: 'DigestQueryModel', description: 'The digest of the last complete week (Monday to Sunday, UTC) that ended before `reference` (default now).' });
export type DigestQueryModel = z.infer<typeof DigestQueryModel>;

/* Results */

const timestamp = z.iso.datetime();
const dayKey = z.iso.date();
const count = z.number().int().min(0);
const measure = z.enum(['share', 'rating', 'sentiment']);

/** A score and its 95% interval (docs/api.md "Scores and their uncertainty"). */
const scoreInterval = z.object({ value: z.number(), low: z.number(), high: z.number(), method: z.enum(['wilson', 't']) });
/** A score's change and the 95% interval of the difference. */
const scoreChange = z.object({
  delta: z.number(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  significant: z.boolean().nullable(),
  method: z.enum(['newcombe', 'welch', 'count']),
});
const windowScore = z.object({ score: scoreInterval, count, from: dayKey, to: dayKey });
const probability = z.number().min(0).max(1);

/** Why an alert fired (docs/api.md "Alerts"). */
const alertSignificance = z.object({
  method: z.literal('benjamini-hochberg'),
  pValue: probability,
  adjustedPValue: probability,
  threshold: probability,
  falseDiscoveryRate: probability,
  tested: z.number().int().min(1),
});

export const AccountAlertSettingsModel = z
  .object({ falseDiscoveryRate: probability })
  .meta({ id: 'AccountAlertSettings', description: 'The account\'s alert settings, the default filled in (docs/api.md "Alerts").' });

const countOf = { count, of: count };
const grownTheme = z.object({ id: z.string(), label: z.string(), ...countOf, previous: z.object(countOf) });
const grownPhrase = z.object({ text: z.string(), ...countOf, previous: z.object(countOf) });
const themeGrowth = {
  /** A tagged-message set's negative tags whose messages were read; absent: all its messages. */
  tags: z.array(z.string()).optional(),
  themes: z.array(grownTheme),
  phrases: z.array(grownPhrase),
};

export const AlertModel = z
  .object({
    id: z.string(),
    accountId: z.string(),
    projectId: z.string(),
    contentSetId: z.string(),
    entity: z.enum(ALERT_ENTITIES),
    entityId: z.string(),
    name: z.string(),
    schema: z.enum(SCHEMAS),
    measure,
    url: z.string().optional(),
    current: windowScore,
    previous: windowScore,
    change: scoreChange,
    /** Absent on alerts raised before alerts carried it. */
    significance: alertSignificance.optional(),
    /** Message sets: the themes and phrases that grew among its (negative) messages in the window; absent on other sets and older alerts. */
    themes: themeGrowth.themes.optional(),
    phrases: themeGrowth.phrases.optional(),
    themeTags: themeGrowth.tags,
    createdAt: timestamp,
  })
  .meta({
    id: 'Alert',
    description:
      "An entity's last 7 complete days (`current`) significantly worse than the 28 days before them (`previous`); `url` its page in the console; `significance` its p-value and the threshold it passed; for message sets, `themes` and `phrases` that grew among its messages (`themeTags`: the negative tags read).",
  });

export const AlertPageModel = z
  .object({ items: z.array(AlertModel), cursor: z.string().min(1).optional() })
  .meta({ id: 'AlertPage', description: 'One page of alerts/list, newest first; `cursor` while more remain.' });

const week = z.object({ from: dayKey, to: dayKey });
const digestPage = z.object({ contentItemId: z.string(), contentSetId: z.string(), name: z.string(), count, score: scoreInterval });

export const ProjectDigestModel = z
  .object({
    projectId: z.string(),
    projectName: z.string(),
    week,
    previousWeek: week,
    responses: z.object({
      count,
      previous: count,
      change: z.object({ difference: z.number().int(), percentage: z.number().nullable() }),
    }),
    schemas: z.array(
      z.object({
        schema: z.enum(SCHEMAS),
        measure,
        best: z.array(digestPage),
        worst: z.array(digestPage),
        changes: z.array(digestPage.extend({ previous: z.object({ count, score: scoreInterval }), change: scoreChange })),
      }),
    ),
    alerts: z.array(AlertModel),
    /** Always answered now; absent on digests sent before. */
    risingThemes: z.array(z.object({ contentSetId: z.string(), name: z.string(), ...themeGrowth })).optional(),
  })
  .meta({
    id: 'ProjectDigest',
    description:
      "A project's week: its responses against the week before, per scored schema the best and worst pages and the largest significant changes, the week's alerts, and per message set the themes and phrases that grew against the 4 weeks before.",
  });
