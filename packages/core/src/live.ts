import { z } from 'zod';
import { CHANGE_REQUEST_TRANSITIONS } from './schemas/change-requests';
import { SCHEDULE_STATES } from './schemas/schedules';

/**
 * The live dashboard's wire messages (docs/product.md "Live updates"): what the server's
 * /api/v1/live socket sends and the dashboard reads. The dashboard parses every message through
 * {@link liveMessageSchema} and ignores one that does not fit, so a server newer or older than the
 * page cannot break it.
 */

/** What kind of change a live message tells of. */
export const LIVE_CHANGE_KINDS = [
  'feature.toggled',
  'feature.targeting',
  'feature.settings',
  'feature.created',
  'feature.deleted',
  'feature.seen',
  'experiment.changed',
  'change-request.changed',
  'schedule.changed',
] as const;

/**
 * A change someone (or an SDK) made in the organisation: which feature of which project and
 * environment, how, and who did it (absent for an SDK).
 */
export const liveChangeSchema = z.object({
  kind: z.enum(LIVE_CHANGE_KINDS),
  projectKey: z.string(),
  environmentKey: z.string().optional(),
  featureKey: z.string().optional(),
  /** Who did it; absent for an SDK. */
  actor: z.object({ id: z.string(), name: z.string() }).optional(),
  /** When it happened (ISO 8601). */
  at: z.string(),
  /** `feature.toggled`: the new state (integrations say "turned on" or "off"). */
  enabled: z.boolean().optional(),
  /** `experiment.changed`: which experiment, and whether this change started or finished it. */
  experiment: z
    .object({ name: z.string(), transition: z.enum(['started', 'finished']).optional() })
    .optional(),
  /** `change-request.changed`: which request, and what happened to it. */
  changeRequest: z
    .object({ id: z.string(), title: z.string(), transition: z.enum(CHANGE_REQUEST_TRANSITIONS) })
    .optional(),
  /** `schedule.changed`: which schedule, and where it stands now. */
  schedule: z.object({ id: z.string(), state: z.enum(SCHEDULE_STATES) }).optional(),
});
/** Type of {@link liveChangeSchema}. */
export type LiveChange = z.infer<typeof liveChangeSchema>;

/** A message of the live socket: `hello` once it is open, then a `change` for each change. */
export const liveMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello') }),
  z.object({ type: z.literal('change'), change: liveChangeSchema }),
]);
/** Type of {@link liveMessageSchema}. */
export type LiveMessage = z.infer<typeof liveMessageSchema>;
