import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { DAY_MS } from '@vexil/core';
import { findUnstorableText } from '../lib/storable-text';

/** Bounds of what one SDK user brings along (its attributes become a jsonb row). */
export const MAX_ATTRIBUTES = 50;
export const MAX_ATTRIBUTE_VALUES = 50;
export const MAX_ATTRIBUTES_CHARS = 16_384;

const scalar = z.union([z.string().max(1_000), z.number(), z.boolean(), z.null()]);
const attributeValue = z.union([scalar, z.array(scalar).max(MAX_ATTRIBUTE_VALUES)]);

/** The characters of an attribute map's keys and text values, without building its JSON. */
function attributeChars(attributes: Record<string, z.infer<typeof attributeValue>>): number {
  let chars = 0;
  for (const [key, value] of Object.entries(attributes)) {
    chars += key.length;
    for (const item of Array.isArray(value) ? value : [value]) chars += String(item).length;
  }
  return chars;
}

const attributes = z
  .record(z.string().max(200), attributeValue)
  .refine((map) => Object.keys(map).length <= MAX_ATTRIBUTES, `At most ${MAX_ATTRIBUTES} attributes.`)
  .refine(
    (map) => attributeChars(map) <= MAX_ATTRIBUTES_CHARS,
    `At most ${MAX_ATTRIBUTES_CHARS.toLocaleString('en-GB')} characters of attributes.`,
  );

const userId = z.union([z.string().max(500), z.number()]);

const userObject = z
  .object({
    id: userId.nullish(),
    /** Python sends `key` for the id. */
    key: userId.nullish(),
    attributes: attributes.nullish(),
    /** Python's misspelled `attribute`. */
    attribute: attributes.nullish(),
  })
  .loose();

/**
 * The union event schema of docs/sdk-protocol.md §4 and §6.2: every SDK's rows, evaluate or goal. Loose on
 * purpose where SDKs differ (extra fields pass, `user` may be an object, a bare id or absent) and
 * strict on types and sizes where a field is counted or stored.
 */
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

/** Timestamps before this are clocks gone wrong, not impressions. */
const EARLIEST_EVENT = Date.UTC(2000, 0, 1);
/** How far ahead of the server an SDK's clock may run. */
const MAX_CLOCK_AHEAD_MS = DAY_MS;

/**
 * When the row happened: its timestamp when it parses and is plausible, else when it arrived. A
 * year past 9999 or before 0 would not even be a date PostgreSQL reads back from `toISOString`, and a
 * future one would pin "last impression" ahead of every real one.
 */
export function timeOf(event: SdkEvent, receivedAt: Date): Date {
  if (!event.timestamp) return receivedAt;
  // Java and Go send nanoseconds; Date.parse reads at most milliseconds reliably.
  const trimmed = event.timestamp.replace(/(\.\d{3})\d+/, '$1');
  const time = Date.parse(trimmed);
  const plausible =
    Number.isFinite(time) && time >= EARLIEST_EVENT && time <= receivedAt.getTime() + MAX_CLOCK_AHEAD_MS;
  return plausible ? new Date(time) : receivedAt;
}

/** Most entries of a goal row's `evaluatedFeatures` that are read. */
const MAX_EVALUATED_FEATURES = 1_000;

/**
 * The features and variants a goal row says its user was shown (the browser SDK's
 * `evaluatedFeatures`, a map of feature key to variant key). Any other shape, or entries that are
 * not two short strings, is ignored: the field is optional and SDKs differ.
 */
export function evaluatedFeaturesOf(event: SdkEvent): [featureKey: string, variantKey: string][] {
  const map = (event as { evaluatedFeatures?: unknown }).evaluatedFeatures;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return [];
  const pairs: [string, string][] = [];
  for (const [featureKey, variantKey] of Object.entries(map)) {
    if (pairs.length >= MAX_EVALUATED_FEATURES) break;
    if (typeof variantKey === 'string' && featureKey.length <= 200 && variantKey.length <= 200)
      pairs.push([featureKey, variantKey]);
  }
  return pairs;
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

/** What became of a request's events (ingestion.ts). */
export type IngestOutcome =
  | { status: 'stored' }
  | { status: 'busy'; retryAfterSeconds: number }
  | { status: 'unavailable'; retryAfterSeconds: number }
  | { status: 'refused' };

type ProblemBody = { title: string; detail?: string; errors?: { field: string; message: string }[] };

/** The answer to an events POST: 200 once stored, else a status with its JSON body. */
export type EventsAnswer =
  { status: 200 } | { status: 400 | 429 | 503; retryAfterSeconds?: number; body: ProblemBody };

/** Deeper than any SDK's events (array, row, user, attributes, list; a goal's `data` object). */
export const MAX_EVENTS_DEPTH = 32;

/** Whether parsed JSON nests deeper than `max`, walked with its own stack in one linear pass. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= max) return true;
    for (const child of Object.values(item.value)) pending.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

/** Parses and validates an events body: the events, or the 400 that refuses them. */
export function readEvents(
  raw: unknown,
): { ok: true; events: SdkEvent[] } | { ok: false; answer: EventsAnswer } {
  const refuse = (body: ProblemBody) => ({
    ok: false as const,
    answer: { status: 400 as const, body },
  });
  const json = parseJsonBody(raw);
  if (!json.ok) return refuse({ title: json.message });
  if (nestsDeeperThan(json.value, MAX_EVENTS_DEPTH)) {
    return refuse({
      title: 'The events are not valid.',
      detail: `JSON nested deeper than ${MAX_EVENTS_DEPTH} levels.`,
    });
  }
  // PostgreSQL stores no NUL, and jsonb no lone surrogate: one such row acknowledged would fail
  // every write after it (docs/adr/0008-event-ingestion-group-commit.md), so the body is refused whole, whichever field has it.
  const unstorable = findUnstorableText(json.value);
  if (unstorable) return refuse({ title: 'The events are not valid.', errors: [unstorable] });
  const parsed = sdkEventsBody.safeParse(json.value);
  if (parsed.success) return { ok: true, events: parsed.data };
  const errors = parsed.error.issues
    .slice(0, 20)
    .map((issue) => ({ field: issue.path.join('.') || '(body)', message: issue.message }));
  return refuse({ title: 'The events are not valid.', errors });
}

/** 200 only once stored; SDKs back off and send again on 429 and 503 (docs/sdk-protocol.md §4). */
export function answerOf(outcome: IngestOutcome): EventsAnswer {
  switch (outcome.status) {
    case 'stored':
      return { status: 200 };
    case 'busy':
      return {
        status: 429,
        retryAfterSeconds: outcome.retryAfterSeconds,
        body: {
          title: 'Too many events, retry later.',
          detail: 'This environment is sending events faster than they can be stored.',
        },
      };
    case 'unavailable':
      return {
        status: 503,
        retryAfterSeconds: outcome.retryAfterSeconds,
        body: { title: 'The events could not be stored, please retry.' },
      };
    case 'refused':
      return {
        status: 400,
        body: {
          title: 'The events could not be stored.',
          detail: 'The database refused their content; none of them were kept.',
        },
      };
  }
}

/** Sends an events answer: an empty 200, or the status with its JSON body and Retry-After. */
export function sendEventsAnswer(reply: FastifyReply, answer: EventsAnswer) {
  if (answer.status === 200) return reply.code(200).send();
  if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
  return reply.code(answer.status).type('application/json').send(answer.body);
}
