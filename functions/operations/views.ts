import { alertSettingsOf, type AlertSettingsInput } from '../domain/alert-settings';
import { quarantineSettingsOf, type QuarantineSettingsInput } from '../domain/quarantine';
import { type AnySchemaConfig, onePerVisitorOf, type Schema } from '../domain/schemas';
import type { ContentItemItem, ContentSetItem, ProjectItem } from '../store/entities';

/** API shapes of SPEC part 2, built from stored items (internal fields never leave here). */
export function projectView(project: ProjectItem) {
  return {
    id: project.id,
    name: project.name,
    accountId: project.accountId,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    state: project.state,
    metadata: project.description === undefined ? {} : { description: project.description },
  };
}

export function contentSetView(contentSet: ContentSetItem) {
  return {
    id: contentSet.id,
    name: contentSet.name,
    key: contentSet.key,
    accountId: contentSet.accountId,
    projectId: contentSet.projectId,
    createdAt: contentSet.createdAt,
    updatedAt: contentSet.updatedAt,
    state: contentSet.state,
    schema: contentSet.schema as Schema,
    schemaConfig: contentSet.schemaConfig,
    metadata: {
      ...(contentSet.description === undefined ? {} : { description: contentSet.description }),
      disallowAutoContentCreation: contentSet.disallowAutoContentCreation,
      publicAggregates: contentSet.publicAggregates,
      revokeWindow: contentSet.revokeWindowSeconds,
      alerts: alertSettingsOf(contentSet.schema as Schema, contentSet.schemaConfig as AnySchemaConfig, contentSet.alerts as AlertSettingsInput | undefined),
      onePerVisitor: onePerVisitorOf(contentSet),
      publicMinCount: contentSet.publicMinCount ?? 0,
      quarantine: quarantineSettingsOf(contentSet.quarantine as QuarantineSettingsInput | undefined),
    },
  };
}

function contentMetadata(item: ContentItemItem) {
  return {
    ...(item.title === undefined ? {} : { title: item.title }),
    ...(item.description === undefined ? {} : { description: item.description }),
    ...(item.url === undefined ? {} : { url: item.url }),
  };
}

export function contentItemView(item: ContentItemItem) {
  return {
    id: item.id,
    key: item.key,
    accountId: item.accountId,
    projectId: item.projectId,
    contentSetId: item.contentSetId,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    state: item.state,
    metadata: contentMetadata(item),
  };
}

export function contentLookupEntry(item: ContentItemItem) {
  return {
    id: item.id,
    key: item.key,
    projectId: item.projectId,
    contentSetId: item.contentSetId,
    metadata: contentMetadata(item),
  };
}

export type ContentSetView = ReturnType<typeof contentSetView>;
export type ContentItemView = ReturnType<typeof contentItemView>;
