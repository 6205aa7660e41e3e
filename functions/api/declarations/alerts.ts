import * as z from 'zod';
import { declareOperation } from '../operation';
import { AccountAlertSettingsInputModel, AccountAlertSettingsModel, AlertListModel, AlertPageModel } from '../alert-models';

/** Alerts raised by the alerts job (docs/api.md "Alerts"): read-only; raising them is the job's. */
export const alertsList = declareOperation({
  resource: 'alerts',
  name: 'list',
  summary: "The account's alerts (or a project's or a content set's), newest first; page on with the returned cursor.",
  args: z.tuple([AlertListModel.nullish()]),
  signature: 'query?: { projectId?, contentSetId?, $size?, cursor? }',
  result: AlertPageModel,
  level: 'viewer',
  readOnly: true,
  errors: [],
  pagesByCursor: true,
});

export const alertsSettings = declareOperation({
  resource: 'alerts',
  name: 'settings',
  summary: "The account's alert settings: the false discovery rate of each day's evaluation (default 0.05).",
  args: z.tuple([]),
  signature: '',
  result: AccountAlertSettingsModel,
  level: 'viewer',
  readOnly: true,
  errors: [],
});

export const alertsSaveSettings = declareOperation({
  resource: 'alerts',
  name: 'saveSettings',
  summary:
    "Sets the account's false discovery rate (0.001 to 0.25): the expected share of false alerts among those one day's evaluation raises. Lower means fewer false alerts and fewer true ones.",
  args: z.tuple([AccountAlertSettingsInputModel]),
  signature: '{ falseDiscoveryRate: number }',
  result: AccountAlertSettingsModel,
  level: 'admin',
  readOnly: false,
  errors: [],
});
