import { z } from 'zod';
import { MAX_LENGTH, dateTimeSchema, idSchema, text } from './common';

/**
 * A personal access token (Admin › Access Tokens). `key` is masked (`vxp_…a1B2`) in lists and
 * complete only in the response that creates it, since only its hash is stored. `expiresDate` is
 * null for a token that does not expire, `lastUsedDate` null until the token is first used.
 */
export const tokenSchema = z.object({
  id: idSchema,
  name: z.string(),
  key: z.string(),
  createdDate: dateTimeSchema,
  expiresDate: dateTimeSchema.nullable(),
  lastUsedDate: dateTimeSchema.nullable(),
});
/** Type of {@link tokenSchema}. */
export type Token = z.infer<typeof tokenSchema>;

/** What others than organisation admins are told on Admin › Access Tokens and when they create one. */
export const TOKENS_ADMINS_ONLY = 'Only organisation admins may create access tokens.';

/** The longest lifetime a token may be given: about ten years. */
export const TOKEN_MAX_EXPIRY_DAYS = 3650;

/** The lifetimes the New Token modal offers, in days. */
export const TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;

/** Most live tokens one member may hold. */
export const MAX_TOKENS_PER_USER = 50;

/** A body giving both ways of setting the expiry is refused with this, on `expiresAt`. */
export const TOKEN_EXPIRY_CONFLICT_MESSAGE = 'Give either expiresInDays or expiresAt, not both.';

/**
 * Body of POST /api/internal/v1/tokens: a name, and optionally a lifetime in days or an expiry date
 * (the server refuses a date in the past or more than {@link TOKEN_MAX_EXPIRY_DAYS} days ahead).
 * Without either the token does not expire.
 */
export const tokenInput = z
  .object({
    name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
    expiresInDays: z
      .number({ error: 'Must be a whole number of days.' })
      .int('Must be a whole number of days.')
      .min(1, 'Must be at least 1 day.')
      .max(TOKEN_MAX_EXPIRY_DAYS, `Must be at most ${TOKEN_MAX_EXPIRY_DAYS} days.`)
      .optional(),
    expiresAt: dateTimeSchema.optional(),
  })
  .refine((input) => input.expiresInDays === undefined || input.expiresAt === undefined, {
    error: TOKEN_EXPIRY_CONFLICT_MESSAGE,
    path: ['expiresAt'],
  });
/** Type of {@link tokenInput}. */
export type TokenInput = z.infer<typeof tokenInput>;

/** The New Token modal's expiry choices: never, or one of {@link TOKEN_EXPIRY_DAYS} as text. */
export const TOKEN_EXPIRY_OPTIONS = ['never', '30', '90', '365'] as const satisfies readonly (
  'never' | `${(typeof TOKEN_EXPIRY_DAYS)[number]}`
)[];
/** One of {@link TOKEN_EXPIRY_OPTIONS}. */
export type TokenExpiryOption = (typeof TOKEN_EXPIRY_OPTIONS)[number];

/** The New Token modal: a required name (saving is blocked while it is empty) and an expiry choice. */
export const tokenForm = z.object({
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  expiry: z.enum(TOKEN_EXPIRY_OPTIONS),
});
/** Type of {@link tokenForm}. */
export type TokenForm = z.infer<typeof tokenForm>;

/** The request body for what the New Token modal holds. */
export function tokenInputOf(form: TokenForm): TokenInput {
  return form.expiry === 'never'
    ? { name: form.name }
    : { name: form.name, expiresInDays: Number(form.expiry) };
}
