/** ElectroDB wraps AWS SDK errors; a failed condition is recognised on the error or its cause. */
export function isConditionFailure(error: unknown): boolean {
  const cause = (error as { cause?: { name?: string } }).cause;
  return (error as Error).name === 'ConditionalCheckFailedException' || cause?.name === 'ConditionalCheckFailedException';
}

/** A transaction canceled by another transaction on the same items; safe to retry. */
export function isTransactionConflict(error: unknown): boolean {
  const cause = (error as { cause?: { name?: string; message?: string } }).cause ?? (error as { name?: string; message?: string });
  return cause.name === 'TransactionConflictException' || (cause.name === 'TransactionCanceledException' && /TransactionConflict/.test(cause.message ?? ''));
}
