import { entityDeclarations } from '../entity-declarations';
import { ContentItemLookupEntryModel, ContentItemModel, ContentItemTopEntryModel } from '../result-models';
import { ContentCreateModel, ContentFilters, ContentKeyModel, ContentSaveModel } from '../models';
import { ContentTopQueryModel } from '../aggregate-models';

const content = entityDeclarations('contents', 'content item', ContentItemModel);

export const contentsCreate = content.create({
  summary: 'Creates an active content item in a set; the key is unique within the set.',
  input: ContentCreateModel,
  signature: '{ contentSetId, key, metadata?: ContentMetadataModel }',
  errors: ['not-found', 'conflict'],
});

export const contentsExists = content.exists({
  summary: 'Whether the account has a content item with this key in this set.',
  key: ContentKeyModel,
  signature: '{ contentSetId, key }: ContentKey',
});

export const contentsGet = content.get('A content item by id (extension: SPEC has no contents/get).');

export const contentsGetStats = content.getStats();

export const contentsThemes = content.themes();

export const contentsLookup = content.lookup({
  summary: 'Content items whose key or title starts with the text (case-insensitive), or whose id is the text; at most 20.',
  filters: ContentFilters,
  filtersType: 'ContentFilters',
  entry: ContentItemLookupEntryModel,
});

export const contentsSave = content.save({
  summary: 'Changes the given fields of a content item (title, description, url, key, state).',
  changes: ContentSaveModel,
  signature: 'id: string, ContentSaveModel',
  errors: ['not-found', 'conflict'],
});

export const contentsTop = content.top({
  summary:
    'Content items of the account, a project or a content set with the most responses in a period (default rolling7d), highest first, each with its stats for that period.',
  query: ContentTopQueryModel,
  queryType: 'ContentTopQueryModel',
  entry: ContentItemTopEntryModel,
});
