import { wellFormedString } from '../well-formed-string';

/** Field schemas shared by the operation definitions. */
export const id = wellFormedString()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'Use letters, digits and _ . : - only');
export const title = wellFormedString().trim().min(1, 'A title cannot be empty').max(200);
export const text = wellFormedString()
  .max(100_000)
  .refine((value) => value.trim().length > 0, 'The message is empty');
export const source = wellFormedString().regex(/^[a-z][a-z0-9_]{0,39}$/, 'A stop source is a short snake_case word');

export const MAX_STEPS_LIMIT = 200;
export const DEFAULT_MAX_STEPS = 25;
