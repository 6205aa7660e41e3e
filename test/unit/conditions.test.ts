import { conditionHolds, isConditionFailure } from '../../functions/store/conditions';

const failed = () => Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });

describe('conditional writes', () => {
  test('a failed condition is recognised on the error or, as ElectroDB wraps it, on its cause', () => {
    expect(isConditionFailure(failed())).toBe(true);
    expect(isConditionFailure(Object.assign(new Error('wrapped'), { cause: failed() }))).toBe(true);
    expect(isConditionFailure(new Error('ProvisionedThroughputExceededException'))).toBe(false);
  });

  test('conditionHolds: true when the write went through, false when its condition failed, other errors thrown', async () => {
    await expect(conditionHolds(Promise.resolve({}))).resolves.toBe(true);
    await expect(conditionHolds(Promise.reject(failed()))).resolves.toBe(false);
    const throttled = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
    await expect(conditionHolds(Promise.reject(throttled))).rejects.toBe(throttled);
  });
});
