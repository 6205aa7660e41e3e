import { responsesImport } from '../../api/declarations/responses';
import { callerAccount } from '../../api/auth';
import { implementOnTable } from '../../api/operation';
import { tableLambdaHandler } from '../../api/table-lambda';
import { importResponses } from '../../operations/response-import';

export const operation = implementOnTable(responsesImport, async ([contentSetId, rows], { store, caller, now, counts }) => {
  const result = await importResponses(store, callerAccount(caller), contentSetId, rows, now);
  // The call's audit entry: its rows per status.
  Object.assign(counts, { imported: 0, duplicate: 0, refused: 0 });
  for (const row of result.rows) counts[row.status]++;
  return result;
});

export const handler = tableLambdaHandler(operation);
