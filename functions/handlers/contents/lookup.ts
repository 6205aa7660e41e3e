import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ContentFilters, lookupText } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { lookupContentItems } from '../../operations/contents';

export const operation = defineOperation({
  resource: 'contents',
  name: 'lookup',
  summary: 'Content items whose key or title starts with the text (case-insensitive), or whose id is the text; at most 20.',
  args: z.tuple([lookupText, ContentFilters.nullish()]),
  signature: 'text: string, filters?: ContentFilters',
  result: 'ContentItemLookupEntry[]',
  level: 'viewer',
  readOnly: true,
  errors: [],
  handler: ([text, filters], { store, caller }) => lookupContentItems(store, callerAccount(caller), text, filters ?? {}),
});

export const handler = lambdaHandler(operation);
