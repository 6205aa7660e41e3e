import * as z from 'zod';
import { declareOperation } from '../operation';
import { AggregatedDataModel, ProjectModel } from '../result-models';
import { ProjectCreateModel, ProjectFilters, ProjectSaveModel, id, lookupText } from '../models';
import { StatsFilter } from '../aggregate-models';

export const projectsCreate = declareOperation({
  resource: 'projects',
  name: 'create',
  summary: 'Creates an active project.',
  args: z.tuple([ProjectCreateModel]),
  signature: '{ name, description? }',
  result: ProjectModel,
  level: 'admin',
  readOnly: false,
  errors: [],
});

export const projectsGet = declareOperation({
  resource: 'projects',
  name: 'get',
  summary: 'A project by id.',
  args: z.tuple([id]),
  signature: 'id: string',
  result: ProjectModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});

export const projectsGetStats = declareOperation({
  resource: 'projects',
  name: 'getStats',
  summary: 'Aggregated responses of a project over one period (default lifetime), with one data point per hour, day, month or year of the period.',
  args: z.tuple([id, StatsFilter.nullish()]),
  signature: 'id: string, filter?: StatsFilter',
  result: AggregatedDataModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});

export const projectsLookup = declareOperation({
  resource: 'projects',
  name: 'lookup',
  summary: 'Projects whose name starts with the text (case-insensitive), or whose id is the text; at most 20, by name.',
  args: z.tuple([lookupText, ProjectFilters.nullish()]),
  signature: 'text: string, filters?: ProjectFilters',
  result: z.array(ProjectModel),
  level: 'viewer',
  readOnly: true,
  errors: [],
});

export const projectsSave = declareOperation({
  resource: 'projects',
  name: 'save',
  summary: 'Changes the given fields of a project (name, description, state).',
  args: z.tuple([id, ProjectSaveModel]),
  signature: 'id: string, { name?, description?, state? }',
  result: ProjectModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
});
