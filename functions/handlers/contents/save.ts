import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ContentSaveModel, id } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { saveContentItem } from '../../operations/contents';

export const operation = defineOperation({
  resource: 'contents',
  name: 'save',
  summary: 'Changes the given fields of a content item (title, description, url, key, state).',
  args: z.tuple([id, ContentSaveModel]),
  signature: 'id: string, ContentSaveModel',
  result: 'ContentItem',
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
  handler: ([contentId, input], { store, caller, now }) => saveContentItem(store, callerAccount(caller), contentId, input, now),
});

export const handler = lambdaHandler(operation);
