/** ElectroDB wraps AWS SDK errors; a failed condition is recognised on the error or its cause. */
export function isConditionFailure(error: unknown): boolean {
  const cause = (error as { cause?: { name?: string } }).cause;
  return (error as Error).name === 'ConditionalCheckFailedException' || cause?.name === 'ConditionalCheckFailedException';
}

/** Awaits a conditional write: false when its condition failed (the item had moved on), any other error thrown. */
export async function conditionHolds(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
