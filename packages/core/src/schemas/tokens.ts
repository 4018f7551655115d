import { z } from 'zod';
import { MAX_LENGTH, idSchema, text } from './common';

/**
 * A personal access token. `key` is masked in lists and complete only in the response that
 * creates it, since only its hash is stored.
 */
export const tokenSchema = z.object({ id: idSchema, name: z.string(), key: z.string() });
/** Type of {@link tokenSchema}. */
export type Token = z.infer<typeof tokenSchema>;

/** Body of POST /api/internal/v1/tokens, and the New Token modal. */
export const tokenInput = z.object({
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
});
/** Type of {@link tokenInput}. */
export type TokenInput = z.infer<typeof tokenInput>;
/** The New Token modal: same rules as {@link tokenInput}. */
export const tokenForm = tokenInput;
/** Type of {@link tokenForm}. */
export type TokenForm = TokenInput;
