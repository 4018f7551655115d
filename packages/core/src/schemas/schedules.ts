import { z } from 'zod';
import {
  MAX_LENGTH,
  dateTimeSchema,
  environmentKeySchema,
  featureKeySchema,
  idSchema,
  optionalText,
} from './common';
import { rulesSchema } from './targeting';

/*
 * Release automation (docs/adr/0025-scheduler.md): changes of one feature's control in one
 * environment that the server makes on its own at a due time. `once` makes one change at `at`;
 * `recurring` makes the same change at every occurrence of a cron expression in a time zone; `ramp`
 * grows one variant's share of one rule step by step, each step held for a while and, if asked,
 * until enough users saw it and someone approved it.
 */

/** What a schedule does. */
export const SCHEDULE_KINDS = ['once', 'recurring', 'ramp'] as const;
/** One of {@link SCHEDULE_KINDS}. */
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

/**
 * Where a schedule stands. `ready` waits for its start; `running` has started (a ramp between its
 * steps, a recurring schedule between occurrences); `paused` is held by someone (or by its failures,
 * or its cut-off); `suspended` stopped because what it writes was changed by someone else since its
 * last step; `completed`, `rolled-back` and `cancelled` are final.
 */
export const SCHEDULE_STATES = [
  'ready',
  'running',
  'paused',
  'completed',
  'rolled-back',
  'cancelled',
  'suspended',
] as const;
/** One of {@link SCHEDULE_STATES}. */
export type ScheduleState = (typeof SCHEDULE_STATES)[number];

/** The states a schedule never leaves. */
export const FINAL_SCHEDULE_STATES: readonly ScheduleState[] = ['completed', 'rolled-back', 'cancelled'];

/** What a member may do to a schedule: `POST …/schedules/{id}/{action}`. */
export const SCHEDULE_ACTIONS = ['pause', 'resume', 'advance', 'approve', 'rollback', 'cancel'] as const;
/** One of {@link SCHEDULE_ACTIONS}. */
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

/** What a recurring schedule does about occurrences missed while no instance ran: run the last once, or skip them. */
export const CATCH_UP_POLICIES = ['once', 'skip'] as const;
/** One of {@link CATCH_UP_POLICIES}. */
export type CatchUpPolicy = (typeof CATCH_UP_POLICIES)[number];

/** Most steps a ramp may have. */
export const MAX_RAMP_STEPS = 20;
/** The longest a ramp's step may be held: 90 days. */
export const MAX_HOLD_SECONDS = 90 * 24 * 60 * 60;
/** The waits before each retry of a step that failed; after the last, the schedule is paused. */
export const SCHEDULE_RETRY_DELAYS_MS = [
  5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000,
] as const;
/** How many times a step is tried before its schedule is paused with the last error. */
export const MAX_SCHEDULE_ATTEMPTS = SCHEDULE_RETRY_DELAYS_MS.length + 1;
/** How often a ramp waiting for its minimum exposures looks at the impressions again. */
export const EXPOSURE_CHECK_MS = 15_000;
/** The widest window `GET …/schedules?from=&to=` lists occurrences for: 62 days. */
export const MAX_CALENDAR_DAYS = 62;
/** Most occurrences one recurring schedule contributes to a calendar window. */
export const MAX_OCCURRENCES_PER_SCHEDULE = 500;

/** Whether `zone` is an IANA time zone this runtime knows (Europe/Berlin, UTC…). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Messages of the schedules' validation, shared by the server and the dashboard's forms. */
export const SCHEDULE_MESSAGES = {
  patchEmpty: 'Say what to change: enabled, rules or offVariantKey.',
  cronFields: 'A cron expression has 5 fields: minute, hour, day of month, month and day of week.',
  timeZone: 'Must be an IANA time zone, such as Europe/Berlin.',
  increasing: 'Each step must serve the variant to more users than the step before.',
  atBeforeNow: 'The time must be in the future.',
  untilBeforeNow: 'The end must be in the future.',
  cutoffBeforeStart: 'The cut-off must come after the start.',
  recurringRequest: 'A recurring schedule makes a control change; a change request is applied once.',
} as const;

/** The part of a control a scheduled change writes: any of its switch, rules and off variant. */
export const controlPatchSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    rules: rulesSchema.optional(),
    offVariantKey: z.string().min(1, 'Off variant is required').optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: SCHEDULE_MESSAGES.patchEmpty,
  });
/** Type of {@link controlPatchSchema}. */
export type ControlPatch = z.infer<typeof controlPatchSchema>;

/** An approved change request of the environment, applied when it falls due. */
export const requestChangeSchema = z.strictObject({ changeRequestId: idSchema });

/** What a one-off schedule does: a control patch, or an approved change request applied as itself. */
export const scheduledChangeSchema = z.union([requestChangeSchema, controlPatchSchema], {
  error: 'A change is a control patch (enabled, rules, offVariantKey) or {changeRequestId}.',
});
/** Type of {@link scheduledChangeSchema}. */
export type ScheduledChange = z.infer<typeof scheduledChangeSchema>;

/** Whether a scheduled change applies a change request. */
export function isRequestChange(change: ScheduledChange): change is { changeRequestId: string } {
  return 'changeRequestId' in change;
}

/** A cron expression of 5 fields (minute hour day-of-month month day-of-week); the server parses it fully. */
export const cronSchema = z
  .string({ error: SCHEDULE_MESSAGES.cronFields })
  .trim()
  .max(200, SCHEDULE_MESSAGES.cronFields)
  .refine((value) => value.split(/\s+/).length === 5, SCHEDULE_MESSAGES.cronFields);

/** An IANA time zone. */
export const timeZoneSchema = z.string({ error: SCHEDULE_MESSAGES.timeZone }).refine(isTimeZone, {
  message: SCHEDULE_MESSAGES.timeZone,
});

/** One step of a ramp: the variant's share of the rule, how long it is held, and what else it waits for. */
export const rampStepSchema = z.strictObject({
  /** The variant's share of the rule's users, a whole percentage. */
  coverage: z
    .number({ error: 'Coverage must be a number' })
    .int('Coverage must be a whole number')
    .min(1, 'Coverage must be between 1 and 100')
    .max(100, 'Coverage must be between 1 and 100'),
  /** How long the step is held before the ramp may go on. */
  holdSeconds: z
    .number({ error: 'Hold must be a number of seconds' })
    .int('Hold must be a whole number of seconds')
    .min(1, 'Hold must be at least 1 second')
    .max(MAX_HOLD_SECONDS, 'Hold must be at most 90 days'),
  /** Impressions of the rule's variants the step must have seen, after its hold, before the ramp goes on. */
  minExposures: z
    .number()
    .int('Minimum exposures must be a whole number')
    .min(1, 'Minimum exposures must be at least 1')
    .max(1_000_000_000)
    .optional(),
  /** Someone must approve going on from this step, after its hold and exposures (the last gate). */
  approval: z.boolean().optional(),
});
/** Type of {@link rampStepSchema}. */
export type RampStep = z.infer<typeof rampStepSchema>;

/** A ramp's steps: 1 to 20, each serving the variant to more users than the one before. */
export const rampStepsSchema = z
  .array(rampStepSchema)
  .min(1, 'A ramp needs at least one step.')
  .max(MAX_RAMP_STEPS, `A ramp has at most ${MAX_RAMP_STEPS} steps.`)
  .superRefine((steps, ctx) => {
    steps.forEach((step, i) => {
      if (i > 0 && step.coverage <= steps[i - 1]!.coverage)
        ctx.addIssue({ code: 'custom', path: [i, 'coverage'], message: SCHEDULE_MESSAGES.increasing });
    });
  });

const target = {
  featureKey: featureKeySchema,
  environmentKey: environmentKeySchema,
  /** Why, kept with each version the schedule writes. */
  comment: optionalText(MAX_LENGTH.comment),
};

/** `kind: "once"`: one change at `at`. */
export const onceScheduleInput = z.strictObject({
  kind: z.literal('once'),
  ...target,
  at: dateTimeSchema,
  change: scheduledChangeSchema,
});

/** `kind: "recurring"`: one control change at every occurrence of `cron` in `timeZone`, until `until`. */
export const recurringScheduleInput = z.strictObject({
  kind: z.literal('recurring'),
  ...target,
  cron: cronSchema,
  timeZone: timeZoneSchema,
  change: controlPatchSchema,
  until: dateTimeSchema.optional(),
  catchUp: z.enum(CATCH_UP_POLICIES, { error: 'Catch up once or skip.' }).default('once'),
});

/** `kind: "ramp"`: `variantKey`'s share of rule `ruleIndex` (the default rule is the last) grows step by step. */
export const rampScheduleInput = z.strictObject({
  kind: z.literal('ramp'),
  ...target,
  ruleIndex: z.number({ error: 'Rule is required' }).int().min(0, 'Rule is required'),
  variantKey: z.string().min(1, 'Variant is required'),
  steps: rampStepsSchema,
  startAt: dateTimeSchema.optional(),
  cutoffAt: dateTimeSchema.optional(),
});

/** `POST /api/v1/projects/{projectKey}/schedules` (and `PUT …/{id}` with the same kind, feature and environment). */
export const scheduleInputSchema = z.discriminatedUnion(
  'kind',
  [onceScheduleInput, recurringScheduleInput, rampScheduleInput],
  { error: 'Kind must be once, recurring or ramp.' },
);
/** Type of {@link scheduleInputSchema}, as sent. */
export type ScheduleInput = z.input<typeof scheduleInputSchema>;
/** Type of {@link scheduleInputSchema}, as checked. */
export type ScheduleSpec = z.infer<typeof scheduleInputSchema>;

/** `POST …/schedules/{id}/{action}`: an optional comment, kept in the schedule's history. */
export const scheduleActionInput = z.strictObject({ comment: optionalText(MAX_LENGTH.comment) });

/** What a schedule's history records. */
export const SCHEDULE_EVENT_KINDS = [
  'created',
  'updated',
  'started',
  'applied',
  'step',
  'waiting',
  'approved',
  'advanced',
  'paused',
  'resumed',
  'failed',
  'suspended',
  'completed',
  'rolled-back',
  'cancelled',
  'skipped',
] as const;
/** One of {@link SCHEDULE_EVENT_KINDS}. */
export type ScheduleEventKind = (typeof SCHEDULE_EVENT_KINDS)[number];

/** One entry of a schedule's history. */
export const scheduleEventSchema = z.object({
  kind: z.enum(SCHEDULE_EVENT_KINDS),
  /** The ramp's step the entry is about (from 0). */
  step: z.number().int().nullable(),
  /** The member who acted; null for the scheduler. */
  actor: z.string().nullable(),
  message: z.string(),
  /** The control's version the entry wrote. */
  version: z.number().int().nullable(),
  date: dateTimeSchema,
});
/** Type of {@link scheduleEventSchema}. */
export type ScheduleEvent = z.infer<typeof scheduleEventSchema>;

/** A schedule as the API answers it. */
export const scheduleSchema = z.object({
  id: idSchema,
  kind: z.enum(SCHEDULE_KINDS),
  state: z.enum(SCHEDULE_STATES),
  projectKey: z.string(),
  featureKey: z.string(),
  featureName: z.string(),
  environmentKey: z.string(),
  environmentName: z.string(),
  /** What was asked, as `POST` took it (with its defaults). */
  spec: z.record(z.string(), z.unknown()),
  /** The ramp's step applied last (from 0); null before the first. */
  currentStep: z.number().int().nullable(),
  /** The ramp waits for someone to approve going on from its current step. */
  awaitingApproval: z.boolean(),
  /** The ramp's current step waits for impressions: how many it has seen and needs. */
  exposures: z.object({ seen: z.number().int(), needed: z.number().int() }).nullable(),
  /**
   * A started ramp's users by arm (docs/adr/0026-guarded-rollouts.md): those of its rule first served
   * the ramped variant (treatment) or another variant (control), from the SDKs' impressions, in all
   * and since the current step began. Null for other schedules and before the first step.
   */
  arms: z
    .object({
      treatment: z.number().int(),
      control: z.number().int(),
      stepTreatment: z.number().int(),
      stepControl: z.number().int(),
    })
    .nullable(),
  /** When the scheduler acts next; null when it waits for a person or has finished. */
  nextDueDate: dateTimeSchema.nullable(),
  /** Why it is paused or suspended, or the last failure of a step being retried. */
  reason: z.string().nullable(),
  /** Failed attempts of the step due now. */
  failures: z.number().int(),
  /** The control's version the schedule wrote last (or found when it was made). */
  baseVersion: z.number().int().nullable(),
  author: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdDate: dateTimeSchema,
  updatedDate: dateTimeSchema,
  /** Oldest first; only in `GET …/schedules/{id}` and the answers to actions. */
  history: z.array(scheduleEventSchema).optional(),
});
/** Type of {@link scheduleSchema}. */
export type Schedule = z.infer<typeof scheduleSchema>;

/** `GET /api/v1/projects/{projectKey}/schedules`: a window, and optional filters. */
export const scheduleListQuery = z.object({
  from: dateTimeSchema.optional(),
  to: dateTimeSchema.optional(),
  featureKey: z.string().optional(),
  environmentKey: z.string().optional(),
  /** Include finished schedules (completed, rolled back, cancelled) in `schedules`. */
  finished: z.enum(['true', 'false']).optional(),
});
/** Type of {@link scheduleListQuery}. */
export type ScheduleListQuery = z.infer<typeof scheduleListQuery>;

/** One pending occurrence in a calendar window. */
export const scheduleOccurrenceSchema = z.object({
  scheduleId: idSchema,
  kind: z.enum(SCHEDULE_KINDS),
  featureKey: z.string(),
  featureName: z.string(),
  environmentKey: z.string(),
  date: dateTimeSchema,
  /** What happens then, in words ("Turn on", "Ramp step 2: 50 %"). */
  description: z.string(),
});
/** Type of {@link scheduleOccurrenceSchema}. */
export type ScheduleOccurrence = z.infer<typeof scheduleOccurrenceSchema>;

/** The answer of the list: every pending occurrence in the window, and the schedules they belong to. */
export const scheduleListSchema = z.object({
  from: dateTimeSchema,
  to: dateTimeSchema,
  occurrences: z.array(scheduleOccurrenceSchema),
  schedules: z.array(scheduleSchema),
});
/** Type of {@link scheduleListSchema}. */
export type ScheduleList = z.infer<typeof scheduleListSchema>;
