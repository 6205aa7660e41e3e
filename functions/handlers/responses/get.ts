import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { id } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { getResponse } from '../../operations/responses';

export const operation = defineOperation({
  resource: 'responses',
  name: 'get',
  summary: 'A response by id (revoke tokens are never returned).',
  args: z.tuple([id]),
  signature: 'id: string',
  result: 'Response',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  handler: ([responseId], { store, caller }) => getResponse(store, callerAccount(caller), responseId),
});

export const handler = lambdaHandler(operation);
