import * as z from 'zod';
import { declareOperation } from '../operation';
import { KeyCreateModel, KeyListQueryModel, keyId } from '../key-models';
import { ApiKeyPageModel, CreatedApiKeyModel, NoContent } from '../result-models';

/**
 * API keys of the caller's own account, for admins (the key CLI stays for an account's
 * first key). Keys are shown once, by keys/create; lists never carry a key or its hash.
 */
export const keysList = declareOperation({
  resource: 'keys',
  name: 'list',
  summary: "The account's API keys, newest first, with who created each (never the key or its hash); page on with the returned cursor.",
  args: z.tuple([KeyListQueryModel.nullish()]),
  signature: 'query?: { $size?, cursor? }',
  result: ApiKeyPageModel,
  level: 'admin',
  readOnly: true,
  errors: [],
  pagesByCursor: true,
});

export const keysCreate = declareOperation({
  resource: 'keys',
  name: 'create',
  summary: 'Issues an API key of the account; the key is shown only in this answer.',
  args: z.tuple([KeyCreateModel]),
  signature: "{ level: 'viewer' | 'admin', label? }",
  result: CreatedApiKeyModel,
  level: 'admin',
  readOnly: false,
  errors: ['conflict'],
});

export const keysRevoke = declareOperation({
  resource: 'keys',
  name: 'revoke',
  summary:
    'Revokes an API key of the account by its id (the calling key too: from its next request), with the keys it created and its pending invitations. Revoking again changes nothing.',
  args: z.tuple([keyId]),
  signature: 'id: string',
  result: NoContent,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict', 'unavailable'],
});
