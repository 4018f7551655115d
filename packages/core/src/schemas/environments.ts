import { z } from 'zod';
import { normaliseEnvironmentKey } from '../keys';
import { isProductionEnvironment, type EnvironmentConstraint } from '../permissions';
import {
  MAX_LENGTH,
  environmentKeySchema,
  idSchema,
  normalisedKey,
  optionalUrl,
  projectKeySchema,
  tagsInput,
  text,
  basedOnVersion,
  dateTimeSchema,
} from './common';

/** Default environment colour (docs/product.md §9). */
export const DEFAULT_ENVIRONMENT_COLOR = '#1273de';
/** `#rgb` or `#rrggbb`. */
export const HEX_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}){1,2}$/;
/** Message for a colour that is not `#rgb` or `#rrggbb`; the environment form shows it too. */
export const COLOR_MESSAGE = 'Color must be a hex colour such as #1273de.';
/** Server SDK key: `sdk-srv-env-` and 32 hex digits (docs/sdk-protocol.md §1). */
export const SERVER_SDK_KEY_PATTERN = /^sdk-srv-env-[0-9a-f]{32}$/;
/** Browser/mobile SDK key: `sdk-js-env-` and 32 hex digits; public by design. */
export const JS_SDK_KEY_PATTERN = /^sdk-js-env-[0-9a-f]{32}$/;
/**
 * What the API sends instead of a server SDK key to a user who may not change the environment's
 * flags (see `canSeeServerSdkKey`): the key's prefix with its secret part starred out, so that it
 * still reads as a server key and can never be mistaken for, or used as, a real one.
 */
export const MASKED_SERVER_SDK_KEY = `sdk-srv-env-${'*'.repeat(32)}`;

/** True when an environment's `apiKey` is {@link MASKED_SERVER_SDK_KEY} rather than the key. */
export function isMaskedServerSdkKey(apiKey: string): boolean {
  return apiKey === MASKED_SERVER_SDK_KEY;
}

/**
 * Whether SDK registration may create features in a new environment: not in production, where a
 * feature appearing from a deployed application would change what production serves unreviewed.
 */
export function defaultSdkCanCreateFeatures(environment: EnvironmentConstraint): boolean {
  return !isProductionEnvironment(environment);
}

/** An environment of a project (docs/product.md §3). */
export const environmentSchema = z.object({
  id: idSchema,
  name: z.string(),
  key: z.string(),
  /** `''` when no url is set. */
  url: z.string(),
  color: z.string(),
  local: z.boolean(),
  production: z.boolean(),
  /** Mirrors `production`; docs/product.md §3 names both and dashboards read either. */
  isProduction: z.boolean(),
  projectKey: z.string(),
  tags: z.array(z.string()),
  /**
   * Whether `PUT /api/sdk/v1/register` with this environment's server key may create the features
   * an application declares. Off by default in production environments, on elsewhere.
   */
  sdkCanCreateFeatures: z.boolean(),
  /** The server SDK key, or {@link MASKED_SERVER_SDK_KEY} for those who may not change the environment. */
  apiKey: z.union([z.string().regex(SERVER_SDK_KEY_PATTERN), z.literal(MASKED_SERVER_SDK_KEY)]),
  jsApiKey: z.string().regex(JS_SDK_KEY_PATTERN),
  /** The version an update sends back (see `basedOnVersion`). */
  lastModifiedDate: dateTimeSchema,
});
/** Type of {@link environmentSchema}. */
export type Environment = z.infer<typeof environmentSchema>;

/** An environment's colour: hex, refused (never replaced by the default) when it is not. */
const environmentColor = z
  .string({ error: (issue) => (issue.input == null ? 'Color is required' : 'Expected text') })
  .trim()
  .min(1, { error: 'Color is required', abort: true })
  // The pattern alone bounds the length and excludes NUL, so a bad colour gets this one message
  // rather than a length complaint beside it.
  .regex(HEX_COLOR_PATTERN, COLOR_MESSAGE);

/**
 * Body of PUT (with `id`) or POST /api/v1/environments/, and the Create/Update Environment form.
 * The key is normalised (docs/product.md §5); the server ignores a changed key on update.
 */
export const environmentInput = z.object({
  id: idSchema.optional(),
  projectKey: projectKeySchema,
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  key: normalisedKey(normaliseEnvironmentKey, 'Key is required'),
  url: optionalUrl,
  color: environmentColor.default(DEFAULT_ENVIRONMENT_COLOR),
  local: z.boolean().default(false),
  production: z.boolean().default(false),
  tags: tagsInput,
  /**
   * Lets SDKs create features by registering them with this environment's server key. Left out, a
   * new environment gets the default (off in production, on elsewhere) and an update keeps the
   * current value, except that an environment becoming production turns it off.
   */
  sdkCanCreateFeatures: z.boolean().optional(),
  /** Copies the targeting of this environment's controls into the new one. */
  cloneEnvironmentId: idSchema.optional(),
  lastModifiedDate: basedOnVersion,
});
/** Type of {@link environmentInput} after parsing. */
export type EnvironmentInput = z.infer<typeof environmentInput>;

/**
 * Body of PUT /api/v1/environments/: {@link environmentInput} where a field left out (url, color,
 * local, production, tags) keeps the stored value instead of taking the default a new environment
 * gets (docs/product.md §5).
 */
export const environmentUpdateInput = environmentInput.extend({
  url: environmentInput.shape.url.unwrap().optional(),
  color: environmentColor.optional(),
  local: z.boolean().optional(),
  production: z.boolean().optional(),
  tags: environmentInput.shape.tags.unwrap().optional(),
  /** Kept with the version the save creates (docs/adr/0022-versions.md). */
  comment: text({ max: MAX_LENGTH.comment }).optional(),
});
/** Type of {@link environmentUpdateInput} after parsing. */
export type EnvironmentUpdateInput = z.infer<typeof environmentUpdateInput>;

/** Route params `/environments/{projectKey}/{environmentKey}`. */
export const environmentParams = z.object({
  projectKey: projectKeySchema,
  environmentKey: environmentKeySchema,
});
/** Type of {@link environmentParams}. */
export type EnvironmentParams = z.infer<typeof environmentParams>;
