import * as z from 'zod';
import { DigestQueryModel, ProjectDigestModel } from '../alert-models';
import { entityDeclarations } from '../entity-declarations';
import { declareOperation } from '../operation';
import { ProjectModel } from '../result-models';
import { id, ProjectCreateModel, ProjectFilters, ProjectSaveModel } from '../models';

const project = entityDeclarations('projects', 'project', ProjectModel);

export const projectsCreate = project.create({
  summary: 'Creates an active project.',
  input: ProjectCreateModel,
  signature: '{ name, description? }',
  errors: [],
});

export const projectsGet = project.get('A project by id.');

export const projectsGetStats = project.getStats();

export const projectsThemes = project.themes();

export const projectsLookup = project.lookup({
  summary: 'Projects whose name starts with the text (case-insensitive), or whose id is the text; at most 20, by name.',
  filters: ProjectFilters,
  filtersType: 'ProjectFilters',
  entry: ProjectModel,
});

export const projectsSave = project.save({
  summary: 'Changes the given fields of a project (name, description, state).',
  changes: ProjectSaveModel,
  signature: 'id: string, { name?, description?, state? }',
  errors: ['not-found'],
});

export const projectsDigest = declareOperation({
  resource: 'projects',
  name: 'digest',
  summary:
    "A project's last complete week (Monday to Sunday, UTC, before `reference`, default now): its responses against the week before, per scored schema the five best and worst pages and the largest significant changes, and the week's alerts.",
  args: z.tuple([id, DigestQueryModel.nullish()]),
  signature: 'id: string, query?: { reference? }',
  result: ProjectDigestModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  timeoutSeconds: 28,
});
