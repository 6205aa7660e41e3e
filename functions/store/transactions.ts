import { unmarshall } from '@aws-sdk/util-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { TableClient } from './dynamodb-clients';
import type { RawItem, TransactItem } from './items';

/** Why DynamoDB canceled one entry of a transaction (`None` for the entries that were fine). */
export interface CancellationReason {
  code: string;
  /** The item as it was, for entries sent with ReturnValuesOnConditionCheckFailure ALL_OLD. */
  item?: RawItem;
}

export type TransactionOutcome = { canceled: false } | { canceled: true; reasons: CancellationReason[] };

/**
 * One TransactWriteItems request. A canceled transaction (a condition failed, or another
 * transaction held one of the items: `TransactionConflict`) is an outcome, not an error;
 * the caller decides what each reason means. Reasons come in the order of `items`.
 */
export async function writeTransaction(table: TableClient, items: TransactItem[]): Promise<TransactionOutcome> {
  try {
    await table.documentClient.send(new TransactWriteCommand({ TransactItems: items }));
    return { canceled: false };
  } catch (error) {
    const { name, CancellationReasons, message } = error as {
      name?: string;
      message?: string;
      CancellationReasons?: { Code?: string; Item?: Record<string, never> }[];
    };
    if (name !== 'TransactionCanceledException') throw error;
    // The SDK reports the reasons as a list; a message without it is parsed as a fallback.
    const codes = CancellationReasons?.map((reason) => reason.Code ?? 'None') ?? /\[([^\]]*)\]/.exec(message ?? '')?.[1].split(/,\s*/) ?? [];
    return {
      canceled: true,
      reasons: items.map((_, index) => {
        const item = CancellationReasons?.[index]?.Item;
        return { code: codes[index] ?? 'None', ...(item ? { item: unmarshall(item) } : {}) };
      }),
    };
  }
}

export const isConflict = (reasons: CancellationReason[]) => reasons.some((reason) => reason.code === 'TransactionConflict');

/** A short random pause before retrying a transaction that another one held: 5-15 ms times the attempt. */
export const conflictPause = (attempt: number) => new Promise((wait) => setTimeout(wait, (5 + Math.random() * 10) * attempt));
