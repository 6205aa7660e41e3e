import { ApiError, badRequest, invalidFields, notFound } from '../api/errors';
import { DEFAULT_REVOKE_WINDOW_SECONDS, type ContentSetCreateModel, type ContentSetFilters, type ContentSetSaveModel } from '../api/models';
import { alertSettingsProblem, type AlertSettingsInput } from '../domain/alert-settings';
import type { QuarantineSettingsInput } from '../domain/quarantine';
import { onePerVisitorOf, parseSchemaConfig, type Schema } from '../domain/schemas';
import { indexedPrefix, newId } from '../domain/text';
import { isConditionFailure } from '../store/conditions';
import type { ContentSetItem, NewContentSet, Store } from '../store/entities';
import { LOOKUP_PAGE, prefixLookup, stateMatches } from './lookup';
import { loadProject } from './projects';
import { contentSetView } from './views';

export async function loadContentSet(store: Store, accountId: string, contentSetId: string): Promise<ContentSetItem> {
  const { data } = await store.entities.ContentSet.get({ id: contentSetId }).go({ consistent: true });
  if (!data || data.accountId !== accountId) throw notFound('Content set', contentSetId);
  return data;
}

export async function getContentSet(store: Store, accountId: string, contentSetId: string) {
  return contentSetView(await loadContentSet(store, accountId, contentSetId));
}

/** Alerts need a score: a set of a schema without one may not turn them on or give a minDrop. */
function checkAlertSettings(schema: Schema, alerts: AlertSettingsInput | undefined, path: string): void {
  const problem = alerts === undefined ? undefined : alertSettingsProblem(schema, alerts);
  if (problem) throw badRequest(`Invalid alert settings: ${problem}`, [{ path, message: problem }]);
}

function setKeyTaken(projectId: string, key: string): ApiError {
  return new ApiError('conflict', `A content set with key "${key}" already exists in this project`, { projectId, key });
}

export async function createContentSet(store: Store, accountId: string, input: ContentSetCreateModel, now: Date) {
  await loadProject(store, accountId, input.projectId);
  const config = parseSchemaConfig(input.schema, input.schemaConfig);
  if (!config.success) {
    throw badRequest(`Invalid schemaConfig for schema ${input.schema}`, invalidFields(config.error.issues, 'args.0.schemaConfig'));
  }
  checkAlertSettings(input.schema, input.metadata.alerts, 'args.0.metadata.alerts');
  const timestamp = now.toISOString();
  const contentSet = {
    id: newId(),
    accountId,
    projectId: input.projectId,
    key: input.key,
    keyLower: indexedPrefix(input.key),
    name: input.metadata.name,
    nameLower: indexedPrefix(input.metadata.name),
    description: input.metadata.description,
    schema: input.schema,
    schemaConfig: config.data,
    disallowAutoContentCreation: input.metadata.disallowAutoContentCreation ?? false,
    publicAggregates: input.metadata.publicAggregates ?? false,
    revokeWindowSeconds: input.metadata.revokeWindow ?? DEFAULT_REVOKE_WINDOW_SECONDS,
    ...(input.metadata.alerts === undefined ? {} : { alerts: input.metadata.alerts }),
    onePerVisitor: onePerVisitorOf({ schema: input.schema, onePerVisitor: input.metadata.onePerVisitor }),
    publicMinCount: input.metadata.publicMinCount ?? 0,
    ...(input.metadata.quarantine === undefined ? {} : { quarantine: input.metadata.quarantine }),
    state: 'active',
    createdAt: timestamp,
    updatedAt: timestamp,
  } satisfies NewContentSet;
  const { canceled } = await store.transaction
    .write(({ ContentSet, ContentSetKey }) => [
      ContentSetKey.create({ projectId: input.projectId, key: input.key, contentSetId: contentSet.id, accountId }).commit(),
      ContentSet.create(contentSet).commit(),
    ])
    .go();
  if (canceled) throw setKeyTaken(input.projectId, input.key);
  return contentSetView(contentSet);
}

export async function saveContentSet(store: Store, accountId: string, contentSetId: string, input: ContentSetSaveModel, now: Date) {
  const current = await loadContentSet(store, accountId, contentSetId);
  if (input.alerts !== undefined) checkAlertSettings(current.schema as Schema, input.alerts, 'args.1.alerts');
  const changes = {
    ...(input.name === undefined ? {} : { name: input.name, nameLower: indexedPrefix(input.name) }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.key === undefined ? {} : { key: input.key, keyLower: indexedPrefix(input.key) }),
    ...(input.disallowAutoContentCreation === undefined ? {} : { disallowAutoContentCreation: input.disallowAutoContentCreation }),
    ...(input.publicAggregates === undefined ? {} : { publicAggregates: input.publicAggregates }),
    ...(input.revokeWindow === undefined ? {} : { revokeWindowSeconds: input.revokeWindow }),
    // The fields given replace the stored ones; the others stay (or keep their defaults).
    ...(input.alerts === undefined ? {} : { alerts: { ...(current.alerts as AlertSettingsInput | undefined), ...input.alerts } }),
    ...(input.onePerVisitor === undefined ? {} : { onePerVisitor: input.onePerVisitor }),
    ...(input.publicMinCount === undefined ? {} : { publicMinCount: input.publicMinCount }),
    ...(input.quarantine === undefined ? {} : { quarantine: { ...(current.quarantine as QuarantineSettingsInput | undefined), ...input.quarantine } }),
    ...(input.state === undefined ? {} : { state: input.state }),
    updatedAt: now.toISOString(),
  };
  const keyMoves = input.key !== undefined && input.key !== current.key;
  if (keyMoves) {
    const { projectId } = current;
    const { canceled } = await store.transaction
      .write(({ ContentSet, ContentSetKey }) => [
        ContentSetKey.create({ projectId, key: input.key!, contentSetId, accountId }).commit(),
        ContentSetKey.delete({ projectId, key: current.key }).commit(),
        ContentSet.patch({ id: contentSetId })
          .set(changes)
          .where((attributes, { eq }) => `${eq(attributes.accountId, accountId)} AND ${eq(attributes.key, current.key)}`)
          .commit(),
      ])
      .go();
    if (canceled) throw setKeyTaken(projectId, input.key!);
    return contentSetView({ ...current, ...changes });
  }
  try {
    const { data } = await store.entities.ContentSet.patch({ id: contentSetId })
      .set(changes)
      .where((attributes, { eq }) => eq(attributes.accountId, accountId))
      .go({ response: 'all_new' });
    return contentSetView(data as ContentSetItem);
  } catch (error) {
    if (isConditionFailure(error)) throw notFound('Content set', contentSetId);
    throw error;
  }
}

/** True when the account has a set with this key in this project; another account's sets do not exist. */
export async function contentSetExists(store: Store, accountId: string, projectId: string, key: string): Promise<boolean> {
  const { data } = await store.entities.ContentSetKey.get({ projectId, key }).go({ consistent: true });
  return data !== null && data.accountId === accountId;
}

export async function lookupContentSets(store: Store, accountId: string, text: string, filters: ContentSetFilters) {
  const state = filters.state ?? 'all';
  const schemas = filters.schema === undefined ? undefined : new Set<string>([filters.schema].flat());
  const prefix = indexedPrefix(text);
  const found = await prefixLookup<ContentSetItem>({
    text,
    byId: async (id) => (await store.entities.ContentSet.get({ id }).go()).data,
    indexes: [
      (cursor) =>
        store.entities.ContentSet.query
          .byName({ accountId })
          .begins({ nameLower: prefix })
          .go({ ...LOOKUP_PAGE, cursor }),
      (cursor) =>
        store.entities.ContentSet.query
          .byKey({ accountId })
          .begins({ keyLower: prefix })
          .go({ ...LOOKUP_PAGE, cursor }),
    ],
    matches: (contentSet) =>
      contentSet.accountId === accountId &&
      stateMatches(state, contentSet.state) &&
      (filters.projectId === undefined || contentSet.projectId === filters.projectId) &&
      (schemas === undefined || schemas.has(contentSet.schema)),
  });
  return found.map(contentSetView);
}
