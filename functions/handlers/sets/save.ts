import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ContentSetSaveModel, id } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { saveContentSet } from '../../operations/sets';

export const operation = defineOperation({
  resource: 'sets',
  name: 'save',
  summary: 'Changes the given fields of a content set (name, description, key, flags, revokeWindow, state).',
  args: z.tuple([id, ContentSetSaveModel]),
  signature: 'id: string, ContentSetSaveModel',
  result: 'ContentSet',
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
  handler: ([contentSetId, input], { store, caller, now }) => saveContentSet(store, callerAccount(caller), contentSetId, input, now),
});

export const handler = lambdaHandler(operation);
