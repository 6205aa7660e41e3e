import * as z from 'zod';

/**
 * The numbers the service stores as sent. DynamoDB keeps numbers of magnitude 1e-130 to
 * about 1e126 (a smaller one is refused, not rounded to 0), and the SDK's marshalling
 * refuses a JavaScript number beyond ±(2^53 - 1), which it could not read back exactly. So a
 * free-form number is 0, or of a magnitude from 1e-130 to 2^53 - 1; any other is refused
 * with `bad-request` before anything is written (docs/api.md, "Call convention").
 */
export const SMALLEST_STORED_MAGNITUDE = 1e-130;
export const LARGEST_STORED_MAGNITUDE = Number.MAX_SAFE_INTEGER;

export const STORED_NUMBER_RULE = `0, or a magnitude from 1e-130 to 2^53-1 (${LARGEST_STORED_MAGNITUDE})`;

export function isStorableNumber(value: number): boolean {
  const magnitude = Math.abs(value);
  return Number.isFinite(value) && magnitude <= LARGEST_STORED_MAGNITUDE && (magnitude === 0 || magnitude >= SMALLEST_STORED_MAGNITUDE);
}

/**
 * `schema` without the magnitudes below 1e-130 other than 0, which JSON Schema cannot say;
 * the schema's own min and max (which the OpenAPI document carries) must keep it within
 * ±(2^53 - 1).
 */
export function storable(schema: z.ZodNumber): z.ZodNumber {
  return schema.refine((value) => value === 0 || Math.abs(value) >= SMALLEST_STORED_MAGNITUDE, `must be ${STORED_NUMBER_RULE}`);
}

/** Any number the service stores. */
export const storedNumber = storable(
  z.number().min(-LARGEST_STORED_MAGNITUDE, `must be ${STORED_NUMBER_RULE}`).max(LARGEST_STORED_MAGNITUDE, `must be ${STORED_NUMBER_RULE}`),
);
