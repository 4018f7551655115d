import { z } from 'zod';

/**
 * The union event schema of sdk-protocol §4 and §6.2: every SDK's rows, evaluate or goal. Loose on
 * purpose where SDKs differ (extra fields pass, `user` may be an object, a bare id or absent) and
 * strict on types where the counters depend on them.
 */
const attributeValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])),
]);

const userObject = z
  .object({
    id: z.union([z.string(), z.number()]).nullish(),
    /** Python sends `key` for the id. */
    key: z.union([z.string(), z.number()]).nullish(),
    attributes: z.record(z.string(), attributeValue).nullish(),
    /** Python's misspelled `attribute`. */
    attribute: z.record(z.string(), attributeValue).nullish(),
  })
  .loose();

export const sdkEventSchema = z
  .object({
    type: z.string().max(32).nullish(),
    featureKey: z.string().max(200).nullish(),
    evaluatedVariant: z.string().max(200).nullish(),
    impressions: z.number().int().min(0).max(1_000_000).nullish(),
    timestamp: z.string().max(64).nullish(),
    user: z.union([userObject, z.string().max(500), z.null()]).optional(),
    goalKey: z.string().max(200).nullish(),
    value: z.number().nullish(),
  })
  .loose();

export const sdkEventsBody = z.array(sdkEventSchema).max(20_000, 'At most 20,000 events per request.');
export type SdkEvent = z.infer<typeof sdkEventSchema>;

export type EventUser = { id: string; attributes: Record<string, z.infer<typeof attributeValue>> };

/** The user of a row, whatever shape the SDK sent; null when absent. */
export function userOf(event: SdkEvent): EventUser | null {
  const user = event.user;
  if (user === undefined || user === null) return null;
  if (typeof user === 'string') return user === '' ? null : { id: user, attributes: {} };
  const id = user.id ?? user.key;
  if (id === undefined || id === null || id === '') return null;
  return { id: String(id), attributes: { ...(user.attribute ?? {}), ...(user.attributes ?? {}) } };
}

/** When the row happened: its timestamp when it parses, else when it arrived. */
export function timeOf(event: SdkEvent, receivedAt: Date): Date {
  if (!event.timestamp) return receivedAt;
  // Java and Go send nanoseconds; Date.parse reads at most milliseconds reliably.
  const trimmed = event.timestamp.replace(/(\.\d{3})\d+/, '$1');
  const time = Date.parse(trimmed);
  return Number.isFinite(time) ? new Date(time) : receivedAt;
}

/** Whether a row counts as an evaluation (a missing type does). */
export function isEvaluate(event: SdkEvent): boolean {
  return event.type === undefined || event.type === null || event.type === 'evaluate';
}

/** Parses a request body as JSON whatever its content type said (Go sends none). */
export function parseJsonBody(raw: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (raw === undefined || raw === null || raw === '')
    return { ok: false, message: 'The body must be a JSON array.' };
  if (typeof raw !== 'string' && !Buffer.isBuffer(raw)) return { ok: true, value: raw };
  try {
    return { ok: true, value: JSON.parse(raw.toString()) as unknown };
  } catch {
    return { ok: false, message: 'The body is not valid JSON.' };
  }
}
