import * as z from 'zod';
import { cursor } from './response-models';
import { nameText } from '../domain/names';
import { id, MAX_PAGE_SIZE } from './models';

export const MAX_KEY_LABEL = 200;
export const DEFAULT_KEY_PAGE_SIZE = 100;

export const KeyCreateModel = z.strictObject({
  level: z.enum(['viewer', 'admin']),
  label: nameText(MAX_KEY_LABEL).optional(),
});
export type KeyCreateModel = z.infer<typeof KeyCreateModel>;

export const KeyListQueryModel = z.strictObject({
  $size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_KEY_PAGE_SIZE),
  cursor: cursor.optional(),
});
export type KeyListQueryModel = z.infer<typeof KeyListQueryModel>;

export const keyId = id;
