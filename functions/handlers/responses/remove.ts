import * as z from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { defineOperation } from '../../api/operation';
import { ResponseRemoveModel } from '../../api/response-models';
import { removeResponse } from '../../operations/responses';

export const operation = defineOperation({
  resource: 'responses',
  name: 'remove',
  summary: 'Revokes a response (state becomes revoked) while its revocation window is open.',
  args: z.tuple([ResponseRemoveModel]),
  signature: '{ responseId (or feelbackId), revokeToken }',
  result: 'void',
  level: 'anonymous',
  readOnly: false,
  errors: ['not-found', 'forbidden', 'conflict'],
  handler: ([input], { store, caller, now }) => removeResponse(store, caller, input, now),
});

export const handler = lambdaHandler(operation);
