import { z } from 'zod';
import { normaliseSegmentKey } from '../keys';
import {
  MAX_LENGTH,
  environmentKeySchema,
  idSchema,
  normalisedKey,
  optionalText,
  projectKeySchema,
  text,
  basedOnVersion,
  dateTimeSchema,
} from './common';

/** A user segment of one environment (docs/product.md §3). */
export const segmentSchema = z.object({
  id: idSchema,
  key: z.string(),
  name: z.string(),
  description: z.string(),
  projectKey: z.string(),
  environmentKey: z.string(),
  /** The version an update sends back (see `basedOnVersion`). */
  lastModifiedDate: dateTimeSchema,
});
/** Type of {@link segmentSchema}. */
export type Segment = z.infer<typeof segmentSchema>;

const segmentKey = normalisedKey(normaliseSegmentKey, 'Key is required');
const segmentName = text({ max: MAX_LENGTH.name, required: 'Name is required' });
const segmentDescription = optionalText(MAX_LENGTH.description);

/** Body of PUT (with `id`) or POST /api/v2/segments/. */
export const segmentInput = z.object({
  id: idSchema.optional(),
  projectKey: projectKeySchema,
  environmentKey: environmentKeySchema,
  key: segmentKey,
  name: segmentName,
  description: segmentDescription,
  lastModifiedDate: basedOnVersion,
  /** Kept with the version the save creates (docs/adr/0022-versions.md). */
  comment: text({ max: MAX_LENGTH.comment }).optional(),
});
/** Type of {@link segmentInput}. */
export type SegmentInput = z.infer<typeof segmentInput>;

/** The Create Segment modal, with the field names of docs/product.md §3. */
export const segmentForm = z.object({
  segmentKey,
  segmentName,
  segmentDescription,
});
/** Type of {@link segmentForm}. */
export type SegmentForm = z.infer<typeof segmentForm>;

/** Route params of GET /api/v2/segments/{projectKey}/{environmentKey}. */
export const segmentsParams = z.object({
  projectKey: projectKeySchema,
  environmentKey: environmentKeySchema,
});
/** Type of {@link segmentsParams}. */
export type SegmentsParams = z.infer<typeof segmentsParams>;
