import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { id } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { getContentSet } from '../../operations/sets';

export const operation = defineOperation({
  resource: 'sets',
  name: 'get',
  summary: 'A content set by id (extension: SPEC has no sets/get).',
  args: z.tuple([id]),
  signature: 'id: string',
  result: 'ContentSet',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  handler: ([contentSetId], { store, caller }) => getContentSet(store, callerAccount(caller), contentSetId),
});

export const handler = lambdaHandler(operation);
