import * as z from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { defineOperation } from '../../api/operation';
import { ResponseEditModel } from '../../api/response-models';
import { editResponse } from '../../operations/responses';

export const operation = defineOperation({
  resource: 'responses',
  name: 'edit',
  summary: 'Replaces the value of a response while its revocation window is open.',
  args: z.tuple([ResponseEditModel]),
  signature: '{ responseId (or feelbackId), revokeToken, value }',
  result: 'ResponseWriteResult',
  level: 'anonymous',
  readOnly: false,
  errors: ['not-found', 'forbidden', 'conflict'],
  handler: ([input], { store, caller, now }) => editResponse(store, caller, input, now),
});

export const handler = lambdaHandler(operation);
