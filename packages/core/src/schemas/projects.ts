import { z } from 'zod';
import { normaliseProjectKey } from '../keys';
import {
  MAX_LENGTH,
  basedOnVersion,
  dateTimeSchema,
  idSchema,
  normalisedKey,
  projectKeySchema,
  text,
} from './common';
import { environmentSchema } from './environments';
import { targetSchema } from './targets';

/** A project with its environments and targets (docs/product.md §3). */
export const projectSchema = z.object({
  id: idSchema,
  name: z.string(),
  key: z.string(),
  /** `''` when no url is set. */
  url: z.string(),
  tags: z.array(z.string()),
  environments: z.array(environmentSchema),
  targets: z.array(targetSchema),
  /** The version an update sends back (see `basedOnVersion`). */
  lastModifiedDate: dateTimeSchema,
});
/** Type of {@link projectSchema}. */
export type Project = z.infer<typeof projectSchema>;

/**
 * A project as menus and the initial payload carry it: its environments without their SDK keys
 * (those are fetched with the project, by whoever opens the Api keys modal) and without targets.
 */
export const projectSummarySchema = projectSchema.omit({ targets: true }).extend({
  environments: z.array(environmentSchema.omit({ apiKey: true, jsApiKey: true })),
});
/** Type of {@link projectSummarySchema}. */
export type ProjectSummary = z.infer<typeof projectSummarySchema>;

/**
 * Body of PUT (with `id`) or POST /api/v1/projects/, and the Create/Update Project form. The key
 * is normalised to at most 5 lowercase letters or digits (docs/product.md §5); the server ignores a changed
 * key on update.
 */
export const projectInput = z.object({
  id: idSchema.optional(),
  name: text({ max: MAX_LENGTH.name, required: 'Name is required' }),
  key: normalisedKey(normaliseProjectKey, 'Key is required'),
  lastModifiedDate: basedOnVersion,
});
/** Type of {@link projectInput} after parsing. */
export type ProjectInput = z.infer<typeof projectInput>;

/** Route params `{projectKey}`. */
export const projectKeyParam = z.object({ projectKey: projectKeySchema });
/** Type of {@link projectKeyParam}. */
export type ProjectKeyParam = z.infer<typeof projectKeyParam>;

/** Messages for the last-one rules of docs/product.md §5. */
export const LAST_PROJECT_MESSAGE = 'You must have at least one project.';
/** Shown when deleting the only environment of a project. */
export const LAST_ENVIRONMENT_MESSAGE = 'You must have at least one environment.';
