import * as z from 'zod';
import { declareOperation } from '../operation';
import { id } from '../models';
import { ThemeCurationModel, ThemeCurationResultModel, ThemeCurationsModel } from '../theme-models';
import { entityDeclarations } from '../entity-declarations';
import { ContentSetModel, ContentSetTopEntryModel } from '../result-models';
import { ContentSetCreateModel, ContentSetFilters, ContentSetKeyModel, ContentSetSaveModel } from '../models';
import { ContentSetTopQueryModel } from '../aggregate-models';

const set = entityDeclarations('sets', 'content set', ContentSetModel);

export const setsCreate = set.create({
  summary: 'Creates an active content set in a project; the key is unique within the project.',
  input: ContentSetCreateModel,
  signature: '{ projectId, key, schema, schemaConfig?, metadata: ContentSetMetadataModel }',
  errors: ['not-found', 'conflict'],
});

export const setsExists = set.exists({
  summary: 'Whether the account has a content set with this key in this project.',
  key: ContentSetKeyModel,
  signature: '{ projectId, key }: ContentSetKey',
});

export const setsGet = set.get('A content set by id (extension: SPEC has no sets/get).');

export const setsGetStats = set.getStats();

export const setsThemes = set.themes();

export const setsLookup = set.lookup({
  summary: 'Content sets whose name or key starts with the text (case-insensitive), or whose id is the text; at most 20.',
  filters: ContentSetFilters,
  filtersType: 'ContentSetFilters',
  entry: ContentSetModel,
});

export const setsSave = set.save({
  summary: 'Changes the given fields of a content set (name, description, key, flags, revokeWindow, state).',
  changes: ContentSetSaveModel,
  signature: 'id: string, ContentSetSaveModel',
  errors: ['not-found', 'conflict'],
});

export const setsTop = set.top({
  summary:
    'Content sets of the account (or of a project) with the most responses in a period (default rolling7d), highest first, each with its stats for that period.',
  query: ContentSetTopQueryModel,
  queryType: 'ContentSetTopQueryModel',
  entry: ContentSetTopEntryModel,
});

export const setsCurateThemes = declareOperation({
  resource: 'sets',
  name: 'curateThemes',
  summary:
    "Records what a person decided about a message set's themes (rename, merge, split, move a message, pin); replayed over every later discovery, applied at the themes job's next run.",
  args: z.tuple([id, ThemeCurationModel]),
  signature: 'contentSetId: string, curation: ThemeCuration',
  result: ThemeCurationResultModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
});

export const setsThemeCurations = declareOperation({
  resource: 'sets',
  name: 'themeCurations',
  summary: "A message set's theme curation records, oldest first.",
  args: z.tuple([id]),
  signature: 'contentSetId: string',
  result: ThemeCurationsModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});
