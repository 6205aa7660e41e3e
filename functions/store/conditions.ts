/** ElectroDB wraps AWS SDK errors; a failed condition is recognised on the error or its cause. */
export function isConditionFailure(error: unknown): boolean {
  const cause = (error as { cause?: { name?: string } }).cause;
  return (error as Error).name === 'ConditionalCheckFailedException' || cause?.name === 'ConditionalCheckFailedException';
}
