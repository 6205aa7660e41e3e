import * as z from 'zod';
import { declareOperation } from '../operation';
import { AggregatedDataModel, ContentSetModel, ContentSetTopEntryModel } from '../result-models';
import { ContentSetCreateModel, ContentSetFilters, ContentSetKeyModel, ContentSetSaveModel, id, lookupText } from '../models';
import { ContentSetTopQueryModel, StatsFilter } from '../aggregate-models';

export const setsCreate = declareOperation({
  resource: 'sets',
  name: 'create',
  summary: 'Creates an active content set in a project; the key is unique within the project.',
  args: z.tuple([ContentSetCreateModel]),
  signature: '{ projectId, key, schema, schemaConfig?, metadata: ContentSetMetadataModel }',
  result: ContentSetModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
});

export const setsExists = declareOperation({
  resource: 'sets',
  name: 'exists',
  summary: 'Whether the account has a content set with this key in this project.',
  args: z.tuple([ContentSetKeyModel]),
  signature: '{ projectId, key }: ContentSetKey',
  result: z.boolean(),
  level: 'viewer',
  readOnly: true,
  errors: [],
});

export const setsGet = declareOperation({
  resource: 'sets',
  name: 'get',
  summary: 'A content set by id (extension: SPEC has no sets/get).',
  args: z.tuple([id]),
  signature: 'id: string',
  result: ContentSetModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});

export const setsGetStats = declareOperation({
  resource: 'sets',
  name: 'getStats',
  summary: 'Aggregated responses of a content set over one period (default lifetime), with one data point per hour, day, month or year of the period.',
  args: z.tuple([id, StatsFilter.nullish()]),
  signature: 'id: string, filter?: StatsFilter',
  result: AggregatedDataModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});

export const setsLookup = declareOperation({
  resource: 'sets',
  name: 'lookup',
  summary: 'Content sets whose name or key starts with the text (case-insensitive), or whose id is the text; at most 20.',
  args: z.tuple([lookupText, ContentSetFilters.nullish()]),
  signature: 'text: string, filters?: ContentSetFilters',
  result: z.array(ContentSetModel),
  level: 'viewer',
  readOnly: true,
  errors: [],
});

export const setsSave = declareOperation({
  resource: 'sets',
  name: 'save',
  summary: 'Changes the given fields of a content set (name, description, key, flags, revokeWindow, state).',
  args: z.tuple([id, ContentSetSaveModel]),
  signature: 'id: string, ContentSetSaveModel',
  result: ContentSetModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
});

export const setsTop = declareOperation({
  resource: 'sets',
  name: 'top',
  summary:
    'Content sets of the account (or of a project) with the most responses in a period (default rolling7d), highest first, each with its stats for that period.',
  args: z.tuple([ContentSetTopQueryModel.nullish()]),
  signature: 'query?: ContentSetTopQueryModel',
  result: z.array(ContentSetTopEntryModel),
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});
