import * as z from 'zod';
import { nameProblem } from '../../shared/names';

/**
 * A name a person reads (shared/names.ts, docs/api.md "Names people read"): NFC and
 * trimmed, then refused with `bad-request` naming the field when it holds a control or
 * format character, a line separator or a noncharacter. Every such field of the API is
 * one of these: accounts, projects, sets, items' titles, keys' labels, webhooks'
 * descriptions, tags' labels and icons.
 */
export function nameText(maxLength: number, minLength = 1) {
  return z
    .string()
    .normalize('NFC')
    .trim()
    .min(minLength)
    .max(maxLength)
    .superRefine((name, context) => {
      const problem = nameProblem(name);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    });
}
