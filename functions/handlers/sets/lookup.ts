import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ContentSetFilters, lookupText } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { lookupContentSets } from '../../operations/sets';

export const operation = defineOperation({
  resource: 'sets',
  name: 'lookup',
  summary: 'Content sets whose name or key starts with the text (case-insensitive), or whose id is the text; at most 20.',
  args: z.tuple([lookupText, ContentSetFilters.nullish()]),
  signature: 'text: string, filters?: ContentSetFilters',
  result: 'ContentSet[]',
  level: 'viewer',
  readOnly: true,
  errors: [],
  handler: ([text, filters], { store, caller }) => lookupContentSets(store, callerAccount(caller), text, filters ?? {}),
});

export const handler = lambdaHandler(operation);
