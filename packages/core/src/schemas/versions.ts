import { z } from 'zod';
import { MAX_LENGTH, dateTimeSchema, idSchema, optionalText } from './common';
import { variantSchema } from './features';
import { ruleSchema } from './targeting';

/*
 * Versions (docs/product.md "History and restore"): every write to a feature's settings, a feature
 * control, a segment or an environment's settings stores an immutable snapshot of the resource with
 * who made it, from where and why. Versions are numbered 1, 2, … per resource; a restore is a new
 * version equal to an older snapshot.
 */

/** Where a change came from: the dashboard, a token, an SDK registering a feature, automation… */
export const VERSION_SOURCES = [
  'ui',
  'api',
  'sdk',
  'schedule',
  'guard',
  'import',
  'cli',
  'mcp',
  'restore',
  'change-request',
  'system',
] as const;
/** One of {@link VERSION_SOURCES}. */
export type VersionSource = (typeof VERSION_SOURCES)[number];

/** The kinds of resource that keep versions. */
export const VERSIONED_RESOURCES = ['feature', 'feature_control', 'segment', 'environment'] as const;
/** One of {@link VERSIONED_RESOURCES}. */
export type VersionedResource = (typeof VERSIONED_RESOURCES)[number];

/** The optional comment a save or a restore carries into its version. */
export const versionComment = optionalText(MAX_LENGTH.comment);

/**
 * A feature control's state as a version keeps it: what the control serves, as the API returns it.
 * What is computed from traffic (statistics, statuses) is not state and is not kept.
 */
export const controlSnapshotSchema = z.object({
  enabled: z.boolean(),
  offVariantKey: z.string(),
  rules: z.array(ruleSchema),
});
/** Type of {@link controlSnapshotSchema}. */
export type ControlSnapshot = z.infer<typeof controlSnapshotSchema>;

/** A feature's settings as a version keeps them (the Feature Settings form's fields). */
export const featureSettingsSnapshotSchema = z.object({
  name: z.string(),
  key: z.string(),
  description: z.string(),
  permanent: z.boolean(),
  variants: z.array(variantSchema),
  tags: z.array(z.string()),
  goals: z.array(z.string()),
  jiraIssueKeys: z.array(z.string()),
  maintainer: z.object({ id: idSchema, name: z.string() }).nullable(),
});
/** Type of {@link featureSettingsSnapshotSchema}. */
export type FeatureSettingsSnapshot = z.infer<typeof featureSettingsSnapshotSchema>;

/** A segment as a version keeps it: what the segment form edits (its key never changes). */
export const segmentSnapshotSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
});
/** Type of {@link segmentSnapshotSchema}. */
export type SegmentSnapshot = z.infer<typeof segmentSnapshotSchema>;

/**
 * An environment's settings as a version keeps them (the Edit Environment form's fields, `url` `''`
 * when none). Its SDK keys are secrets, not settings: a rotation is no change of the settings.
 */
export const environmentSnapshotSchema = z.object({
  name: z.string(),
  key: z.string(),
  url: z.string(),
  color: z.string(),
  local: z.boolean(),
  production: z.boolean(),
  tags: z.array(z.string()),
  sdkCanCreateFeatures: z.boolean(),
});
/** Type of {@link environmentSnapshotSchema}. */
export type EnvironmentSnapshot = z.infer<typeof environmentSnapshotSchema>;

/** One version in a history list: who, when, from where, why and what changed, without the snapshot. */
export const versionSummarySchema = z.object({
  number: z.number().int().min(1),
  /** The version this one was made on; null for the first. */
  parentNumber: z.number().int().min(1).nullable(),
  resourceType: z.enum(VERSIONED_RESOURCES),
  /** The environment of a feature control's version; null for the other resources. */
  environmentKey: z.string().nullable(),
  /** The member (or token) who made the change; null for the system (a migration, the first state). */
  author: z.object({ id: z.string(), name: z.string() }).nullable(),
  source: z.enum(VERSION_SOURCES),
  comment: z.string().nullable(),
  /** For a restore, the version it brought forward. */
  restoredFrom: z.number().int().min(1).nullable(),
  /** The applied change request this version came from (source `change-request`). */
  changeRequestId: z.string().nullable(),
  /** What changed from the parent, as plain sentences ("Turned on", "Rule 2: …"). */
  changes: z.array(z.string()),
  createdDate: dateTimeSchema,
});
/** Type of {@link versionSummarySchema}. */
export type VersionSummary = z.infer<typeof versionSummarySchema>;

/** One version with its snapshot (GET …/versions/{number}). */
export const versionSchema = versionSummarySchema.extend({ snapshot: z.record(z.string(), z.unknown()) });
/** Type of {@link versionSchema}. */
export type Version = z.infer<typeof versionSchema>;

/** Most versions one page of a history holds. */
export const VERSION_PAGE_SIZE_MAX = 100;

/** Response of GET …/versions: newest first. */
export const versionPageSchema = z.object({ content: z.array(versionSummarySchema), last: z.boolean() });
/** Type of {@link versionPageSchema}. */
export type VersionPage = z.infer<typeof versionPageSchema>;

/**
 * Whose history a versions route reads: with `environmentKey`, the feature's control in that
 * environment; without, the feature's settings (which apply to every environment).
 */
const versionedEnvironmentKey = z
  .string({ error: 'environmentKey must be text' })
  .min(1, 'environmentKey must name an environment; leave it out for the feature settings')
  .optional();

/** Query of GET …/versions. */
export const versionPageQuery = z.object({
  environmentKey: versionedEnvironmentKey,
  page: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(VERSION_PAGE_SIZE_MAX).default(20),
});

/** One RFC 6902 operation. */
export const jsonPatchOperationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('remove'), path: z.string() }),
  z.object({ op: z.literal('replace'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('move'), from: z.string(), path: z.string() }),
  z.object({ op: z.literal('copy'), from: z.string(), path: z.string() }),
  z.object({ op: z.literal('test'), path: z.string(), value: z.unknown() }),
]);
/** Type of {@link jsonPatchOperationSchema}. */
export type JsonPatchOperation = z.infer<typeof jsonPatchOperationSchema>;

/** Response of GET …/versions/{a}/diff/{b}: a JSON Patch from a to b, and the same as sentences. */
export const versionDiffSchema = z.object({
  from: z.number().int().min(1),
  to: z.number().int().min(1),
  patch: z.array(jsonPatchOperationSchema),
  changes: z.array(z.string()),
});
/** Type of {@link versionDiffSchema}. */
export type VersionDiff = z.infer<typeof versionDiffSchema>;

/** Body of POST …/versions/{number}/restore: the version the restorer saw as current. */
export const restoreVersionInput = z.object({
  currentVersion: z.number({ error: 'Current version is required' }).int().min(1),
  comment: versionComment,
});
/** Type of {@link restoreVersionInput}. */
export type RestoreVersionInput = z.infer<typeof restoreVersionInput>;

/** Why a restore was refused: the resource already is that version. */
export function nothingToRestoreMessage(number: number): string {
  return `Nothing to restore: this is already what version ${number} was.`;
}

/**
 * Why a version cannot be restored (409 `conflict`): what changed since and cannot be undone by a
 * restore, each reason a sentence.
 */
export function unrestorableMessage(number: number, reasons: readonly string[]): string {
  return `Version ${number} cannot be restored: ${reasons.join(' ')}`;
}

/** A restore of feature settings would remove variants added since, and variants are never removed. */
export function variantsAddedSinceReason(keys: readonly string[]): string {
  const named = keys.map((key) => `"${key}"`).join(', ');
  return keys.length === 1
    ? `the variant ${named} was added after it, and a saved variant cannot be removed.`
    : `the variants ${named} were added after it, and saved variants cannot be removed.`;
}

/** A restore of feature settings names a maintainer who is no longer a member. */
export function maintainerGoneReason(name: string): string {
  return `its maintainer ${name} is no longer a member of this organisation.`;
}

/** Path of the history routes: a feature of a project. */
export const versionedFeatureParams = z.object({ projectKey: z.string(), featureKey: z.string() });

/** Path of one version. */
export const versionNumberParams = versionedFeatureParams.extend({ number: z.coerce.number().int().min(1) });

/** Path of a diff between two versions. */
export const versionDiffParams = versionedFeatureParams.extend({
  a: z.coerce.number().int().min(1),
  b: z.coerce.number().int().min(1),
});

/**
 * The environment whose control's history is read (feature controls are versioned per environment);
 * without it, the feature settings' history.
 */
export const versionEnvironmentQuery = z.object({ environmentKey: versionedEnvironmentKey });

/** Query of GET …/versions of a resource that has one history (a segment, an environment). */
export const versionListQuery = versionPageQuery.omit({ environmentKey: true });

/** Path of a segment's history: `/api/v2/segments/{projectKey}/{environmentKey}/{segmentKey}/versions`. */
export const versionedSegmentParams = z.object({
  projectKey: z.string(),
  environmentKey: z.string(),
  segmentKey: z.string(),
});
/** Path of one version of a segment. */
export const segmentVersionNumberParams = versionedSegmentParams.extend({
  number: z.coerce.number().int().min(1),
});
/** Path of a diff between two versions of a segment. */
export const segmentVersionDiffParams = versionedSegmentParams.extend({
  a: z.coerce.number().int().min(1),
  b: z.coerce.number().int().min(1),
});

/** Path of an environment's history: `/api/v1/environments/{projectKey}/{environmentKey}/versions`. */
export const versionedEnvironmentParams = z.object({ projectKey: z.string(), environmentKey: z.string() });
/** Path of one version of an environment's settings. */
export const environmentVersionNumberParams = versionedEnvironmentParams.extend({
  number: z.coerce.number().int().min(1),
});
/** Path of a diff between two versions of an environment's settings. */
export const environmentVersionDiffParams = versionedEnvironmentParams.extend({
  a: z.coerce.number().int().min(1),
  b: z.coerce.number().int().min(1),
});
