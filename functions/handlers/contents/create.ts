import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ContentCreateModel } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { createContentItem } from '../../operations/contents';

export const operation = defineOperation({
  resource: 'contents',
  name: 'create',
  summary: 'Creates an active content item in a set; the key is unique within the set.',
  args: z.tuple([ContentCreateModel]),
  signature: '{ contentSetId, key, metadata?: ContentMetadataModel }',
  result: 'ContentItem',
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
  handler: ([input], { store, caller, now }) => createContentItem(store, callerAccount(caller), input, now),
});

export const handler = lambdaHandler(operation);
