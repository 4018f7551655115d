import { z } from 'zod';
import {
  ENVIRONMENT_KEY_PATTERN,
  FEATURE_KEY_PATTERN,
  KEY_MAX_LENGTH,
  PROJECT_KEY_PATTERN,
  normaliseTag,
} from '../keys';

/**
 * Building blocks shared by every domain schema: ids, bounded user text, keys, pagination and
 * the error body.
 */

/** Upper bounds for user-supplied strings, so nothing unbounded reaches the database. */
export const MAX_LENGTH = {
  name: 255,
  description: 4000,
  email: 254,
  url: 2048,
  /** A raw key as typed, before normalisation. */
  keyInput: 255,
  query: 255,
  token: 512,
  password: 1024,
  conditionValue: 1000,
  /** Why a change was made, kept with its version. */
  comment: 500,
} as const;

/** Postgres text cannot hold U+0000, and no legitimate input contains it. */
export const NUL_MESSAGE = 'Must not contain NUL characters.';

/** Message for a string longer than its bound. */
export function tooLongMessage(max: number): string {
  return `Must be at most ${max} characters.`;
}

/** Whether a string is free of NUL characters. */
export function hasNoNul(value: string): boolean {
  return !value.includes('\u0000');
}

interface TextOptions {
  /** Upper bound; see {@link MAX_LENGTH}. */
  max: number;
  /** When set, the trimmed text must be non-empty and this is the message otherwise. */
  required?: string;
  /** Trims surrounding whitespace first (default true). Passwords keep theirs. */
  trim?: boolean;
}

/**
 * A bounded, NUL-free string. With `required`, a missing (`undefined` or `null`) and a blank value
 * both report the `required` message, which is what the dashboard shows under the field.
 */
export function text({ max, required, trim = true }: TextOptions) {
  let schema = z.string({
    error: (issue) => (issue.input == null && required ? required : 'Expected text'),
  });
  if (trim) schema = schema.trim();
  if (required) schema = schema.min(1, { error: required, abort: true });
  return schema.refine(hasNoNul, NUL_MESSAGE).max(max, tooLongMessage(max));
}

/** An optional bounded text that defaults to `''`, for descriptions and similar fields. */
export function optionalText(max: number) {
  return text({ max }).default('');
}

/**
 * A key field: NUL-free, bounded as typed, then normalised with `normalise`; an empty key after
 * normalisation reports `required`.
 */
export function normalisedKey(normalise: (input: string) => string, required: string) {
  return z
    .string({ error: (issue) => (issue.input == null ? required : 'Expected text') })
    .refine(hasNoNul, { error: NUL_MESSAGE, abort: true })
    .max(MAX_LENGTH.keyInput, { error: tooLongMessage(MAX_LENGTH.keyInput), abort: true })
    .overwrite(normalise)
    .min(1, { error: required, abort: true });
}

interface EmailMessages {
  /** Shown when the field is missing or blank. */
  required: string;
  /** Shown when the text is not an e-mail address; a function receives the typed value. */
  invalid: string | ((value: string) => string);
}

/** A trimmed e-mail address (at most 254 characters) with the form's own messages. */
export function email({ required, invalid }: EmailMessages) {
  return text({ max: MAX_LENGTH.email, required }).pipe(
    z.email({
      error: (issue) => (typeof invalid === 'string' ? invalid : invalid(String(issue.input))),
    }),
  );
}

/** Entity ids are UUIDs. */
export const idSchema = z.uuid('Must be a valid id.');

/** Route params `{id}`. */
export const idParam = z.object({ id: idSchema });
/** Type of {@link idParam}. */
export type IdParam = z.infer<typeof idParam>;

/**
 * Timestamps travel as ISO-8601 strings (`Date#toJSON()`); the server converts `Date`s before
 * replying.
 */
export const dateTimeSchema = z.iso.datetime({ offset: true });

/**
 * The version an update is based on: the record's `lastModifiedDate` as it was read. When given and
 * the record has changed since, the server refuses the write with 409 and code `stale_write`
 * (docs/adr/0013-concurrent-edits.md); left out, the write applies to whatever is stored.
 */
export const basedOnVersion = dateTimeSchema.optional();

const httpUrl = z.url({ protocol: /^https?$/ });

/** Message for a URL that is not http(s). */
export const URL_MESSAGE = 'Must be a valid http(s) URL.';

/**
 * An http(s) URL, or `''` for none; missing means `''`. Other schemes (`javascript:`) would be
 * unsafe as dashboard links.
 */
export const optionalUrl = text({ max: MAX_LENGTH.url })
  .refine((value) => value === '' || httpUrl.safeParse(value).success, URL_MESSAGE)
  .default('');

// Reference keys name an existing row, so they are checked as they are rather than normalised.
function keyReference(pattern: RegExp, max: number, required: string) {
  return text({ max, required }).regex(pattern, `${required.replace(/ is required$/, '')} is not valid.`);
}

/** A reference to an existing project by key. */
export const projectKeySchema = keyReference(PROJECT_KEY_PATTERN, 5, 'Project is required');
/** A reference to an existing environment by key. */
export const environmentKeySchema = keyReference(
  ENVIRONMENT_KEY_PATTERN,
  KEY_MAX_LENGTH,
  'Environment is required',
);
/** A reference to an existing feature by key. */
export const featureKeySchema = keyReference(FEATURE_KEY_PATTERN, KEY_MAX_LENGTH, 'Feature is required');

/** Most tags an entity may carry. */
export const MAX_TAGS = 50;

/** Tags as typed: each normalised with `normaliseTag`, blanks rejected, duplicates dropped. */
export const tagsInput = z
  .array(normalisedKey(normaliseTag, 'Tag is required'))
  .max(MAX_TAGS, `At most ${MAX_TAGS} tags are allowed.`)
  .overwrite((tags) => [...new Set(tags)])
  .default([]);

/** Query string `?query=` of the search endpoints (projects, tags, targets, members, segments). */
export const searchQuery = z.object({ query: text({ max: MAX_LENGTH.query }).optional() });
/** Type of {@link searchQuery}. */
export type SearchQuery = z.infer<typeof searchQuery>;

/** Feature list page sizes (docs/product.md §9); the first is the default. */
export const FEATURE_PAGE_SIZES = [50, 100, 500] as const;
/** The largest page any list endpoint returns. */
export const MAX_PAGE_SIZE = 500;

/** Query string `?page=&pageSize=`; pages count from 0. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(FEATURE_PAGE_SIZES[0]),
});
/** Type of {@link pageQuery}. */
export type PageQuery = z.infer<typeof pageQuery>;

/**
 * A page of items: `content` and `last` (docs/product.md §3, audit page). `totalElements` is sent by
 * lists that show a page count (features) and may be left out where "Load More" suffices.
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    last: z.boolean(),
    page: z.number().int().min(0),
    pageSize: z.number().int().min(1),
    totalElements: z.number().int().min(0).optional(),
  });
}

/** One field-level validation failure. `field` is a dotted path, e.g. `variants.1.key`. */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
/** Type of {@link fieldErrorSchema}. */
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Every error response body (docs/adr/0010-error-model.md). */
export const errorBodySchema = z.object({
  title: z.string(),
  detail: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
  /** One of core's ERROR_CODES (errors.ts); a string here so an older dashboard reads newer codes. */
  code: z.string().optional(),
  /** 409 `stale_write` of a targeting save: who saved it since the edit began, and when (ISO 8601). */
  changedBy: z.string().optional(),
  changedAt: z.string().optional(),
  /**
   * 409 `change_request_required`: the environment whose change requests the change goes through,
   * and the writer's open request there that "Add to change request" adds to, when there is one.
   */
  environmentKey: z.string().optional(),
  changeRequestId: z.string().optional(),
});
/** Type of {@link errorBodySchema}. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** A redirect target returned by billing endpoints. */
export const redirectUrlSchema = z.object({ url: z.string() });
/** Type of {@link redirectUrlSchema}. */
export type RedirectUrl = z.infer<typeof redirectUrlSchema>;

/**
 * Turns zod issues into the `errors[]` of {@link errorBodySchema}, first message per field, so
 * server and dashboard report the same thing.
 */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    if (!byField.has(field)) byField.set(field, issue.message);
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

/** Any JSON value (a variant's payload, for an SDK's `jsonValue()`). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
