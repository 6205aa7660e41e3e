import { readFileSync } from 'node:fs';
import { GENERATED_PATH, renderClientTypes } from '../../scripts/client-types';

describe('clients/typescript/src/generated.ts', () => {
  it('is generated from the current registry (run `npm run client:generate` after changing it)', () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(renderClientTypes());
  });
});
