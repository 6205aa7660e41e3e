/**
 * responses/import: past responses, written apart from responses/create's path. Create is
 * a visitor's one answer (its per-visitor limit and vote-integrity rules belong there);
 * an import is an administrator's history, so none of those apply, and it writes many
 * rows in few requests.
 *
 * Once per `(set, importId)`, also under concurrency, at no extra write: a row's response
 * id is derived from the set and its importId (`derivedId`), and written with
 * `attribute_not_exists(pk)`. A row imported before (by this call, an earlier one, or one
 * running at the same time) is that condition failing: `duplicate`, nothing changed. A
 * marker item per row would cost a second write each; the derived id costs nothing.
 *
 * DynamoDB requests per call: one BatchGetItem for the set and project, one per 100
 * distinct keys and one per 100 distinct items (their states), one transaction per key
 * that names no item yet (content-key item, item, checks of project and set, as `create`
 * writes it), and one conditional PutItem per row (parallel). Each imported response
 * costs what a live one costs: its item and its list indexes' entries (docs/scaling.md).
 *
 * Imported responses are counted like any other: by the stream's counting consumer in the
 * periods of their `createdAt`. They carry `importId`, by which the webhooks consumer skips
 * their `response.created` (stream/webhooks.ts).
 */
import { MESSAGE_SCHEMAS } from '../domain/theme-counts';
import { requestThemesSync } from '../store/themes';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, badRequest, notFound } from '../api/errors';
import { EARLIEST_IMPORT, type ImportRowModel } from '../api/response-models';
import type { ImportResultModel } from '../api/result-models';
import { deriveProfiling } from '../domain/profiling';
import { derivedId, keyHash } from '../domain/text';
import { getRawItems, getRawItemsChunked } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import type { ContentItemItem, ContentSetItem } from '../store/entities';
import { contentItemOf, contentKeyTarget, contentSetOf, keys, projectStateOf, responseItem, type NewResponse, userIndexAttributes } from '../store/items';
import { autoMetadata, insertContentItem, newContentItem } from './contents';
import { disallowedKey, refuseInactive, stateChecks, validValue } from './response-targets';

type RowResult = ImportResultModel['rows'][number];

/** Rows written at once, and new items created at once. */
const WRITE_CONCURRENCY = 50;
const ITEM_CONCURRENCY = 8;

/** The id of the response a row of the set becomes: the same for the same importId, whoever writes it. */
export function importedResponseId(contentSetId: string, importId: string): string {
  return derivedId('import', contentSetId, importId);
}

/** The argument path of a row's field, as a bad-request names it. */
const rowPath = (index: number, field: string) => `args.1.${index}.${field}`;

/** An error about the row's value or target, as the row's own: paths of `create`'s object (`args.0.x`) become the row's. */
function asRowError(error: unknown, index: number): ApiError {
  if (!(error instanceof ApiError)) throw error;
  const fields = error.data?.fields as { path: string; message: string }[] | undefined;
  if (!Array.isArray(fields)) return error;
  return new ApiError(error.code, error.message, {
    ...error.data,
    fields: fields.map(({ path, message }) => ({ path: path.replace(/^args\.0\./, `args.1.${index}.`), message })),
  });
}

/** In chunks of `size` at once: enough to keep DynamoDB busy without a pool's bookkeeping. */
async function inChunks<T>(entries: T[], size: number, work: (entry: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < entries.length; start += size) await Promise.all(entries.slice(start, start + size).map(work));
}

type Item = Pick<ContentItemItem, 'id' | 'accountId' | 'contentSetId' | 'key' | 'state'>;

/**
 * The items the rows name, by key and by id: read in batches; a key that names no item gets
 * one (unless the set disallows it), or the one a concurrent writer created first.
 */
async function resolveItems(table: TableClient, set: ContentSetItem, rows: ImportRowModel[], now: Date) {
  const distinctKeys = [...new Set(rows.filter((row) => row.contentId === undefined).map((row) => row.key!))];
  const keyItems = new Map<string, string>();
  const readKeys = async (wanted: string[]) => {
    const raws = await getRawItemsChunked(
      table,
      wanted.map((key) => keys.contentKey(set.id, keyHash(key))),
    );
    wanted.forEach((key, index) => {
      const itemId = contentKeyTarget(raws[index]);
      if (itemId) keyItems.set(key, itemId);
    });
  };
  await readKeys(distinctKeys);

  const items = new Map<string, Item>();
  const created: Item[] = [];
  const refusedKeys = new Map<string, ApiError>();
  const missing = distinctKeys.filter((key) => !keyItems.has(key));
  if (set.disallowAutoContentCreation) for (const key of missing) refusedKeys.set(key, disallowedKey(set.id, key));
  else {
    await inChunks(missing, ITEM_CONCURRENCY, async (key) => {
      const item = newContentItem(set, key, autoMetadata(key), now);
      const outcome = await insertContentItem(table, item, stateChecks(table.tableName, { projectId: set.projectId, contentSetId: set.id, itemId: null }));
      if (outcome.inserted) {
        keyItems.set(key, item.id);
        created.push(item);
      }
    });
    // A key some other writer took meanwhile: its item, read like the others.
    const taken = missing.filter((key) => !keyItems.has(key));
    await readKeys(taken);
    for (const key of taken) {
      if (!keyItems.has(key))
        refusedKeys.set(key, new ApiError('conflict', 'The content item is being written concurrently; retry', { contentSetId: set.id, key }));
    }
  }
  for (const item of created) items.set(item.id, item);
  const toRead = [...new Set([...rows.flatMap((row) => (row.contentId ? [row.contentId] : [])), ...keyItems.values()])].filter((id) => !items.has(id));
  const raws = await getRawItemsChunked(
    table,
    toRead.map((id) => keys.contentItem(id)),
  );
  toRead.forEach((id, index) => {
    const item = contentItemOf(raws[index]);
    if (item) items.set(id, item);
  });
  return { keyItems, items, refusedKeys };
}

/** The item a row goes to, or the error that refuses the row. */
function rowTarget(row: ImportRowModel, index: number, set: ContentSetItem, found: Awaited<ReturnType<typeof resolveItems>>): Item | ApiError {
  if (row.contentId === undefined) {
    const refused = found.refusedKeys.get(row.key!);
    if (refused) return refused;
  }
  const itemId = row.contentId ?? found.keyItems.get(row.key!)!;
  const item = found.items.get(itemId);
  if (!item || item.accountId !== set.accountId) return notFound('Content item', itemId);
  if (item.contentSetId !== set.id)
    return badRequest('The content item is not in this content set', [{ path: rowPath(index, 'contentId'), message: 'names an item of another content set' }]);
  if (row.key !== undefined && row.key !== item.key)
    return badRequest('contentId and key name different content items', [{ path: rowPath(index, 'contentId'), message: 'does not match key' }]);
  if (item.state !== 'active')
    return new ApiError('conflict', `The contentItem is ${item.state} and does not take responses`, { entity: 'contentItem', id: item.id, state: item.state });
  return item;
}

function dateProblem(createdAt: string, now: Date): string | undefined {
  if (createdAt < EARLIEST_IMPORT) return `must not be before ${EARLIEST_IMPORT}`;
  if (createdAt > now.toISOString()) return 'must not be in the future';
  return undefined;
}

/**
 * Imports the rows into the set: each one `imported`, `duplicate` or `refused` (with its
 * error) on its own. The call itself is refused only when the set is not the caller's
 * (not-found) or it or its project takes no responses (conflict).
 */
export async function importResponses(
  table: TableClient,
  accountId: string,
  contentSetId: string,
  rows: ImportRowModel[],
  now: Date,
): Promise<ImportResultModel> {
  const [setRaw] = await getRawItems(table, [keys.contentSet(contentSetId)]);
  const set = contentSetOf(setRaw);
  if (!set || set.accountId !== accountId) throw notFound('Content set', contentSetId);
  const [projectRaw] = await getRawItems(table, [keys.project(set.projectId)]);
  const project = projectStateOf(projectRaw);
  if (!project) throw notFound('Project', set.projectId);
  refuseInactive({ project, contentSet: set, item: null });

  const results: RowResult[] = new Array(rows.length);
  const firstOf = new Map<string, number>();
  const candidates: { index: number; row: ImportRowModel; value: ReturnType<typeof validValue> }[] = [];
  rows.forEach((row, index) => {
    const responseId = importedResponseId(set.id, row.importId);
    if (firstOf.has(row.importId)) {
      results[index] = { index, status: 'duplicate', responseId };
      return;
    }
    firstOf.set(row.importId, index);
    const problem = dateProblem(row.createdAt, now);
    if (problem) {
      results[index] = {
        index,
        status: 'refused',
        error: badRequest('createdAt is out of range', [{ path: rowPath(index, 'createdAt'), message: problem }]).toBody(),
      };
      return;
    }
    try {
      candidates.push({ index, row, value: validValue(set, row.value) });
    } catch (error) {
      results[index] = { index, status: 'refused', error: asRowError(error, index).toBody() };
    }
  });

  const found = await resolveItems(
    table,
    set,
    candidates.map(({ row }) => row),
    now,
  );
  await inChunks(candidates, WRITE_CONCURRENCY, async ({ index, row, value }) => {
    const target = rowTarget(row, index, set, found);
    if (target instanceof ApiError) {
      results[index] = { index, status: 'refused', error: target.toBody() };
      return;
    }
    const id = importedResponseId(set.id, row.importId);
    const context = row.context && Object.keys(row.context).length > 0 ? row.context : undefined;
    const profiling = deriveProfiling(row.userId === undefined ? undefined : { userId: row.userId }, { headers: {}, context });
    const response: NewResponse = {
      id,
      accountId: set.accountId,
      projectId: set.projectId,
      contentSetId: set.id,
      contentItemId: target.id,
      schema: set.schema,
      state: 'active',
      value: value.value,
      contribution: value.contribution,
      context,
      profiling: Object.keys(profiling).length > 0 ? profiling : undefined,
      importId: row.importId,
      createdAt: row.createdAt,
      // Its history's last change: the response has not changed since.
      updatedAt: row.createdAt,
      ...userIndexAttributes({ accountId: set.accountId, userId: profiling.userId || undefined, createdAt: row.createdAt, id }),
    };
    try {
      await table.documentClient.send(
        new PutCommand({ TableName: table.tableName, Item: responseItem(response), ConditionExpression: 'attribute_not_exists(pk)' }),
      );
      results[index] = { index, status: 'imported', responseId: id };
    } catch (error) {
      if (isConditionFailure(error)) results[index] = { index, status: 'duplicate', responseId: id };
      // Throttled past the SDK's retries, or the table unreachable: this row only, and safe to send again.
      else
        results[index] = {
          index,
          status: 'refused',
          error: new ApiError('unavailable', 'The response could not be written; send the row again', { importId: row.importId }).toBody(),
        };
    }
  });
  // Imported messages fall on past days: the themes job compares every day of the set for a while.
  if (MESSAGE_SCHEMAS.has(set.schema) && results.some((result) => result.status === 'imported')) {
    await requestThemesSync(table, set.id, now, { full: true });
  }
  return { rows: results };
}
