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
