import { z } from 'zod';
import {
  ISSUE_KEY_MAX_LENGTH,
  ISSUE_KEY_PATTERN,
  PROJECT_KEY_PATTERN,
  normaliseFeatureKey,
  normaliseGoalKey,
  normaliseIssueKey,
} from '../keys';
import {
  FEATURE_PAGE_SIZES,
  MAX_LENGTH,
  dateTimeSchema,
  featureKeySchema,
  idSchema,
  normalisedKey,
  optionalText,
  pageOf,
  pageQuery,
  projectKeySchema,
  tagsInput,
  text,
  basedOnVersion,
} from './common';
import { MAX_VARIANTS, TARGETING_STATUSES, featureControlSchema } from './targeting';

export * from './targeting';
export * from './variant-values';

/** A variant of a feature. */
export const variantSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  /** What SDKs and OFREP return for this variant; absent or null when the variant has none (its key is used). */
  value: z.json().nullable().optional(),
});
/** Type of {@link variantSchema}. */
export type Variant = z.infer<typeof variantSchema>;

/** The variants of a new feature (docs/product.md §9): On and Off. Returns fresh objects each call. */
export function defaultVariants(): Variant[] {
  return [
    { key: 'on', name: 'On', description: '' },
    { key: 'off', name: 'Off', description: '' },
  ];
}

/** Largest JSON value a variant may carry, serialised (32 KB). */
export const MAX_VARIANT_VALUE_BYTES = 32 * 1024;

/** UTF-8 size of the value's JSON (core has no TextEncoder: it runs wherever zod does). */
function jsonByteLength(value: unknown): number {
  const json = JSON.stringify(value);
  let bytes = 0;
  for (const char of json) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** One row of the variants editor; the key is normalised like a feature key. */
export const variantInput = z.object({
  key: normalisedKey(normaliseFeatureKey, 'Key is required'),
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  description: optionalText(MAX_LENGTH.description),
  value: z
    .json()
    .nullable()
    .optional()
    .refine(
      (value) => value === undefined || jsonByteLength(value) <= MAX_VARIANT_VALUE_BYTES,
      `A variant value may be at most ${MAX_VARIANT_VALUE_BYTES / 1024} KB of JSON.`,
    ),
});
/** Type of {@link variantInput}. */
export type VariantInput = z.infer<typeof variantInput>;
/** The variant form (docs/product.md §3): same rules as {@link variantInput}. */
export const variantForm = variantInput;
/** Type of {@link variantForm}. */
export type VariantForm = VariantInput;

/** At least two variants with distinct keys (docs/product.md §5); On and Off when missing. */
export const variantsInput = z
  .array(variantInput)
  .min(2, 'At least two variants are required.')
  .max(MAX_VARIANTS, `At most ${MAX_VARIANTS} variants are allowed.`)
  .superRefine((variants, ctx) => {
    const seen = new Set<string>();
    variants.forEach((variant, index) => {
      if (seen.has(variant.key)) {
        ctx.addIssue({ code: 'custom', path: [index, 'key'], message: 'Variant keys must be unique.' });
      }
      seen.add(variant.key);
    });
  })
  .default(defaultVariants);

/** Message for an issue key that does not look like `ABC-123`. */
export const ISSUE_KEY_MESSAGE = 'Must be an issue key such as ABC-123.';

/** A required issue-tracker key, normalised (docs/product.md §5). */
export const issueKeySchema = normalisedKey(normaliseIssueKey, 'Issue key is required').regex(
  ISSUE_KEY_PATTERN,
  ISSUE_KEY_MESSAGE,
);

/** An optional issue-tracker key: `''` for none. */
export const optionalIssueKey = text({ max: ISSUE_KEY_MAX_LENGTH })
  .overwrite(normaliseIssueKey)
  .refine((key) => key === '' || ISSUE_KEY_PATTERN.test(key), ISSUE_KEY_MESSAGE)
  .default('');

const dedupe = (keys: string[]) => [...new Set(keys)];

/** An issue-tracker ticket linked to a feature. */
export const jiraIssueSchema = z.object({ key: z.string(), title: z.string(), url: z.string() });
/** Type of {@link jiraIssueSchema}. */
export type JiraIssue = z.infer<typeof jiraIssueSchema>;

/** The member responsible for a feature. */
export const maintainerSchema = z.object({ id: idSchema, name: z.string(), email: z.string() });
/** Type of {@link maintainerSchema}. */
export type Maintainer = z.infer<typeof maintainerSchema>;

/** A feature with its controls keyed by environment key (docs/product.md §3). */
export const featureSchema = z.object({
  id: idSchema,
  name: z.string(),
  key: z.string(),
  description: z.string(),
  permanent: z.boolean(),
  variants: z.array(variantSchema),
  tags: z.array(z.string()),
  goals: z.array(z.string()),
  jiraIssues: z.array(jiraIssueSchema),
  jiraIssueKeys: z.array(z.string()),
  maintainer: maintainerSchema.nullable(),
  projectKey: z.string(),
  project: z.object({ key: z.string(), name: z.string() }),
  bookmarked: z.boolean(),
  archived: z.boolean(),
  /** Lists may carry only the environment being shown. */
  controls: z.record(z.string(), featureControlSchema),
  createdDate: dateTimeSchema,
  lastModifiedDate: dateTimeSchema,
});
/** Type of {@link featureSchema}. */
export type Feature = z.infer<typeof featureSchema>;

/**
 * A feature of a home list (docs/product.md §2), with `lastChangedDate`: when its settings or any of
 * its controls last changed. `lastModifiedDate` stays the settings' own version (ADR 0013).
 */
export const homeFeatureSchema = featureSchema.extend({ lastChangedDate: dateTimeSchema });
/** Type of {@link homeFeatureSchema}. */
export type HomeFeature = z.infer<typeof homeFeatureSchema>;
/** Response of GET /api/v1/features/home: one page of a home list, with the total. */
export const homeFeaturePageSchema = pageOf(homeFeatureSchema);
/** Type of {@link homeFeaturePageSchema}. */
export type HomeFeaturePage = z.infer<typeof homeFeaturePageSchema>;

/**
 * Body of PUT (with `id`) or POST /api/v1/projects/{projectKey}/features, and the Feature
 * Settings form. The key is normalised; the server keeps the stored key and the keys of
 * existing variants on update, and refuses to remove existing variants (docs/product.md §5).
 */
export const featureInput = z.object({
  id: idSchema.optional(),
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  key: normalisedKey(normaliseFeatureKey, 'Key is required'),
  description: optionalText(MAX_LENGTH.description),
  permanent: z.boolean().default(false),
  variants: variantsInput,
  tags: tagsInput,
  jiraIssueKeys: z.array(issueKeySchema).max(50).overwrite(dedupe).default([]),
  goals: z
    .array(normalisedKey(normaliseGoalKey, 'Goal Key is required'))
    .max(50)
    .overwrite(dedupe)
    .default([]),
  maintainerId: idSchema.nullable().default(null),
  lastModifiedDate: basedOnVersion,
  /** Why, kept with the version of the settings this save creates (docs/adr/0022-versions.md). */
  comment: optionalText(MAX_LENGTH.comment),
});
/** Type of {@link featureInput} after parsing. */
export type FeatureInput = z.infer<typeof featureInput>;
/** The Feature Settings form: same rules as {@link featureInput}. */
export const featureForm = featureInput;
/** Type of {@link featureForm}. */
export type FeatureForm = FeatureInput;

const selectedProject = text({ max: MAX_LENGTH.keyInput, required: 'Please select a project' }).regex(
  PROJECT_KEY_PATTERN,
  'Please select a project',
);

/** The Create Feature page (docs/product.md §5); `jiraIssueKey` is prefilled from `?issueKey=`. */
export const createFeatureForm = z.object({
  projectKey: selectedProject,
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  key: normalisedKey(normaliseFeatureKey, 'Key is required'),
  jiraIssueKey: optionalIssueKey,
});
/** Type of {@link createFeatureForm}. */
export type CreateFeatureForm = z.infer<typeof createFeatureForm>;

/** The Link Feature page: choose a project, then one of its features. */
export const linkFeatureForm = z.object({
  projectKey: selectedProject,
  featureId: z.uuid({ error: 'Please select a feature' }),
  jiraIssueKey: issueKeySchema,
});
/** Type of {@link linkFeatureForm}. */
export type LinkFeatureForm = z.infer<typeof linkFeatureForm>;

/** Body of PUT /api/v1/features/link. */
export const linkFeatureInput = z.object({ featureId: idSchema, jiraIssueKey: issueKeySchema });
/** Type of {@link linkFeatureInput}. */
export type LinkFeatureInput = z.infer<typeof linkFeatureInput>;

/** Home page feature lists (docs/product.md §2), `recent` by default. */
export const HOME_FEATURE_FILTERS = ['recent', 'bookmarked', 'maintaining'] as const;
/** One of {@link HOME_FEATURE_FILTERS}. */
export type HomeFeatureFilter = (typeof HOME_FEATURE_FILTERS)[number];
/**
 * Sortable columns of the home feature table. `lastChanged` is when the feature's settings or any of
 * its controls last changed (docs/product.md §2).
 */
export const FEATURE_SORT_COLUMNS = [
  'lastChanged',
  'key',
  'name',
  'description',
  'project',
  'maintainer',
] as const;
/** One of {@link FEATURE_SORT_COLUMNS}. */
export type FeatureSortColumn = (typeof FEATURE_SORT_COLUMNS)[number];
/** A sort direction. */
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
/** One of {@link SORT_DIRECTIONS}. */
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
/** The home lists' page size (docs/product.md §9). */
export const HOME_FEATURES_PAGE_SIZE = 50;
/** Newest change first; the other columns read best A to Z first. */
export function defaultSortDirection(column: FeatureSortColumn): SortDirection {
  return column === 'lastChanged' ? 'desc' : 'asc';
}
/** Feature detail tabs; `overview` is the default (docs/product.md §9). */
export const FEATURE_DETAIL_TABS = ['overview', 'targeting', 'settings', 'history', 'audit'] as const;
/** One of {@link FEATURE_DETAIL_TABS}. */
export type FeatureDetailTab = (typeof FEATURE_DETAIL_TABS)[number];

/** Home page feature filters: list, "Filter Features..." text and sort (last changed, newest first). */
export const featureFiltersForm = z.object({
  filter: z.enum(HOME_FEATURE_FILTERS).default('recent'),
  query: text({ max: MAX_LENGTH.query }).default(''),
  sortBy: z.enum(FEATURE_SORT_COLUMNS).default('lastChanged'),
  sortDirection: z.enum(SORT_DIRECTIONS).default('desc'),
});
/** Type of {@link featureFiltersForm}. */
export type FeatureFiltersForm = z.infer<typeof featureFiltersForm>;

/**
 * Query of GET /api/v1/features/home: the list, the "Filter Features..." text, a page (from 0) of at
 * most 50 and the sort. Without a direction the column's default applies ({@link defaultSortDirection}).
 */
export const homeFeaturesQuery = z.object({
  list: z.enum(HOME_FEATURE_FILTERS).default('recent'),
  query: text({ max: MAX_LENGTH.query }).optional(),
  page: pageQuery.shape.page,
  pageSize: z.coerce.number().int().min(1).max(HOME_FEATURES_PAGE_SIZE).default(HOME_FEATURES_PAGE_SIZE),
  sortBy: z.enum(FEATURE_SORT_COLUMNS).default('lastChanged'),
  sortDirection: z.enum(SORT_DIRECTIONS).optional(),
});
/** Type of {@link homeFeaturesQuery}. */
export type HomeFeaturesQuery = z.infer<typeof homeFeaturesQuery>;

/** Query of GET /api/v1/features?filter={text}. */
export const featuresQuery = z.object({ filter: text({ max: MAX_LENGTH.query }).optional() });
/** Type of {@link featuresQuery}. */
export type FeaturesQuery = z.infer<typeof featuresQuery>;

/**
 * Sortable columns of an environment's feature list (docs/product.md §2 "Feature list"): name by
 * default; `lastChanged` as on the home lists.
 */
export const FEATURE_LIST_SORT_COLUMNS = [
  'name',
  'key',
  'lastChanged',
] as const satisfies readonly FeatureSortColumn[];
/** One of {@link FEATURE_LIST_SORT_COLUMNS}. */
export type FeatureListSortColumn = (typeof FEATURE_LIST_SORT_COLUMNS)[number];
/** The feature list's On/Off filter: the feature's control in the environment shown is on, or off. */
export const FEATURE_STATE_FILTERS = ['on', 'off'] as const;
/** One of {@link FEATURE_STATE_FILTERS}. */
export type FeatureStateFilter = (typeof FEATURE_STATE_FILTERS)[number];

const words = (values: readonly string[]) =>
  `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

/** A query parameter that may be repeated (`?tag=a&tag=b`) arrives as one value or several: always a list. */
const asList = (value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Query of an environment's paged feature list (docs/product.md §2 "Feature list"): search text, a
 * page size of 50, 100 or 500, the sort (name by default; without a direction the column's default,
 * {@link defaultSortDirection}) and the filters, which all apply together:
 * - `tag` (repeatable): features having every one of these tags (normalised like the tags saved);
 * - `state`: the feature's control in this environment is on, or off;
 * - `stale`: `true` for the controls whose traffic status is `inactive` (no impression for
 *   `STALE_AFTER_DAYS` (7) days or more: the status icon's "No impressions for N days"), `false` for the
 *   others (`never` and `active`);
 * - `targeting`: the control's targeting status (`off`, `targeted` or `single`).
 */
export const featureListQuery = pageQuery.extend({
  query: text({ max: MAX_LENGTH.query }).optional(),
  pageSize: z.coerce
    .number()
    .refine(
      (size) => (FEATURE_PAGE_SIZES as readonly number[]).includes(size),
      'Page size must be 50, 100 or 500.',
    )
    .default(FEATURE_PAGE_SIZES[0]),
  sortBy: z
    .enum(FEATURE_LIST_SORT_COLUMNS, { error: `Sort must be ${words(FEATURE_LIST_SORT_COLUMNS)}.` })
    .default('name'),
  sortDirection: z.enum(SORT_DIRECTIONS, { error: 'Sort direction must be asc or desc.' }).optional(),
  tag: z.preprocess(asList, tagsInput),
  state: z.enum(FEATURE_STATE_FILTERS, { error: 'State must be on or off.' }).optional(),
  stale: z
    .enum(['true', 'false'], { error: 'Stale must be true or false.' })
    .transform((value) => value === 'true')
    .optional(),
  targeting: z
    .enum(TARGETING_STATUSES, { error: `Targeting must be ${words(TARGETING_STATUSES)}.` })
    .optional(),
});
/** Type of {@link featureListQuery} after parsing. */
export type FeatureListQuery = z.infer<typeof featureListQuery>;
/** What a client may send as {@link featureListQuery}. */
export type FeatureListQueryInput = z.input<typeof featureListQuery>;

/**
 * Response of an environment's feature list: a page with the total, each feature with that
 * environment's control only and `lastChangedDate` (as on the home lists).
 */
export const featureListPageSchema = pageOf(homeFeatureSchema);
/** Type of {@link featureListPageSchema}. */
export type FeatureListPage = z.infer<typeof featureListPageSchema>;

/** Route params `/projects/{projectKey}/features/{featureKey}`. */
export const featureParams = z.object({ projectKey: projectKeySchema, featureKey: featureKeySchema });
/** Type of {@link featureParams}. */
export type FeatureParams = z.infer<typeof featureParams>;

/** Route params of PUT /api/v1/features/{featureId}/bookmark/{bookmarked}. */
export const bookmarkParams = z.object({ featureId: idSchema, bookmarked: z.stringbool() });
/** Type of {@link bookmarkParams}. */
export type BookmarkParams = z.infer<typeof bookmarkParams>;

/** Query of GET /api/v1/variant-daily-impressions. */
export const variantDailyImpressionsQuery = z.object({ featureControlId: idSchema });
/** Response of GET /api/v1/variant-daily-impressions: one dataset per variant, one point per label (day). */
export const variantDailyImpressionsSchema = z.object({
  labels: z.array(z.string()),
  datasets: z.array(z.object({ label: z.string(), data: z.array(z.number()) })),
});
/** Type of {@link variantDailyImpressionsSchema}. */
export type VariantDailyImpressions = z.infer<typeof variantDailyImpressionsSchema>;
