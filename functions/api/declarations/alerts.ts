import * as z from 'zod';
import { declareOperation } from '../operation';
import { AlertListModel, AlertPageModel } from '../alert-models';

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
