import * as z from 'zod';
import { declareOperation } from '../operation';
import { AggregatedDataModel, ContentItemLookupEntryModel, ContentItemModel, ContentItemTopEntryModel } from '../result-models';
import { ContentCreateModel, ContentFilters, ContentKeyModel, ContentSaveModel, id, lookupText } from '../models';
import { ContentTopQueryModel, StatsFilter } from '../aggregate-models';

export const contentsCreate = declareOperation({
  resource: 'contents',
  name: 'create',
  summary: 'Creates an active content item in a set; the key is unique within the set.',
  args: z.tuple([ContentCreateModel]),
  signature: '{ contentSetId, key, metadata?: ContentMetadataModel }',
  result: ContentItemModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
});

export const contentsExists = declareOperation({
  resource: 'contents',
  name: 'exists',
  summary: 'Whether the account has a content item with this key in this set.',
  args: z.tuple([ContentKeyModel]),
  signature: '{ contentSetId, key }: ContentKey',
  result: z.boolean(),
  level: 'viewer',
  readOnly: true,
  errors: [],
});

export const contentsGet = declareOperation({
  resource: 'contents',
  name: 'get',
  summary: 'A content item by id (extension: SPEC has no contents/get).',
  args: z.tuple([id]),
  signature: 'id: string',
  result: ContentItemModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});

export const contentsGetStats = declareOperation({
  resource: 'contents',
  name: 'getStats',
  summary: 'Aggregated responses of a content item over one period (default lifetime), with one data point per hour, day, month or year of the period.',
  args: z.tuple([id, StatsFilter.nullish()]),
  signature: 'id: string, filter?: StatsFilter',
  result: AggregatedDataModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});

export const contentsLookup = declareOperation({
  resource: 'contents',
  name: 'lookup',
  summary: 'Content items whose key or title starts with the text (case-insensitive), or whose id is the text; at most 20.',
  args: z.tuple([lookupText, ContentFilters.nullish()]),
  signature: 'text: string, filters?: ContentFilters',
  result: z.array(ContentItemLookupEntryModel),
  level: 'viewer',
  readOnly: true,
  errors: [],
});

export const contentsSave = declareOperation({
  resource: 'contents',
  name: 'save',
  summary: 'Changes the given fields of a content item (title, description, url, key, state).',
  args: z.tuple([id, ContentSaveModel]),
  signature: 'id: string, ContentSaveModel',
  result: ContentItemModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
});

export const contentsTop = declareOperation({
  resource: 'contents',
  name: 'top',
  summary:
    'Content items of the account, a project or a content set with the most responses in a period (default rolling7d), highest first, each with its stats for that period.',
  args: z.tuple([ContentTopQueryModel.nullish()]),
  signature: 'query?: ContentTopQueryModel',
  result: z.array(ContentItemTopEntryModel),
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});
