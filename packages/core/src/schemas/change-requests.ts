// Over 400 lines on purpose: every contract of the change-requests API in one place (states, settings,
// the change kinds' inputs, views and timeline), as the server and the dashboard both read them.
import { z } from 'zod';
import { MAX_LENGTH, dateTimeSchema, environmentKeySchema, idSchema, optionalText, text } from './common';
import { featureInput } from './features';
import { scheduleInputSchema } from './schedules';
import { segmentInput } from './segments';
import { conditionValueSchema, featureControlInput } from './targeting';
import { VERSIONED_RESOURCES, restoreVersionInput } from './versions';

/*
 * Change requests (docs/adr/0024-change-requests.md): changes to a protected environment are drafted,
 * reviewed and applied together instead of written directly. The states, the approval settings and
 * the reviewers' verbs are contracts of the API; the rules that move a request between states are
 * in change-requests/.
 */

/**
 * Where a request stands. `draft` is its author's alone; `in-review` waits for approvals;
 * `approved` has enough of them; `applied`, `rejected` and `cancelled` are final; `suspended` is an
 * approved request whose changes no longer start from what is live (someone changed the resource
 * since), waiting for its author to bring them up to date.
 */
export const CHANGE_REQUEST_STATES = [
  'draft',
  'in-review',
  'approved',
  'applied',
  'rejected',
  'cancelled',
  'suspended',
] as const;
/** One of {@link CHANGE_REQUEST_STATES}. */
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];

/** The states a request never leaves. */
export const FINAL_CHANGE_REQUEST_STATES: readonly ChangeRequestState[] = [
  'applied',
  'rejected',
  'cancelled',
];

/**
 * What others are told of (notifications, webhooks `change-request.*`, live dashboards): a request
 * submitted for review, approved, sent back for changes, rejected, applied, suspended or cancelled.
 */
export const CHANGE_REQUEST_TRANSITIONS = [
  'submitted',
  'approved',
  'changes-requested',
  'rejected',
  'applied',
  'suspended',
  'cancelled',
] as const;
/** One of {@link CHANGE_REQUEST_TRANSITIONS}. */
export type ChangeRequestTransition = (typeof CHANGE_REQUEST_TRANSITIONS)[number];

/** What a reviewer decides. */
export const REVIEW_DECISIONS = ['approve', 'request-changes', 'reject'] as const;
/** One of {@link REVIEW_DECISIONS}. */
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** What a change in a request changes: the body of the direct write it stands for. */
export const CHANGE_KINDS = ['control', 'feature', 'segment', 'restore', 'schedule'] as const;
/** One of {@link CHANGE_KINDS}. */
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The most approvals an environment may ask for. */
export const MAX_REQUIRED_APPROVALS = 5;

/** An environment's approval settings, as `PUT …/approval-settings` takes them. */
export const approvalSettingsSchema = z.strictObject({
  /** Changes to the environment go through an applied change request. */
  required: z.boolean(),
  minApprovals: z
    .number()
    .int('Must be a whole number.')
    .min(1, 'At least one approval is needed.')
    .max(MAX_REQUIRED_APPROVALS, `At most ${MAX_REQUIRED_APPROVALS} approvals may be asked for.`)
    .default(1),
  /** The author's own approval counts. */
  allowSelfApproval: z.boolean().default(false),
  /** Editing a request in review withdraws the approvals it had. */
  resetApprovalsOnChange: z.boolean().default(true),
  /** The last approval needed applies the request. */
  autoApply: z.boolean().default(false),
});
/** Type of {@link approvalSettingsSchema}. */
export type ApprovalSettings = z.infer<typeof approvalSettingsSchema>;

/**
 * Why a direct write was refused (409 `change_request_required`). The body also names the
 * environment whose change requests the change goes through (`environmentKey`: for a feature's
 * settings, the project's first protected environment) and the writer's request there, if any.
 */
export function changeRequestRequiredMessage(environmentName: string): string {
  return `Changes to ${environmentName} go through change requests: add this change to one.`;
}

/** An environment that has never had its approval settings saved. */
export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  required: false,
  minApprovals: 1,
  allowSelfApproval: false,
  resetApprovalsOnChange: true,
  autoApply: false,
};

/** `POST …/change-requests`: a new draft for one environment of the project. */
export const changeRequestInputSchema = z.strictObject({
  environmentKey: environmentKeySchema,
  title: text({ max: MAX_LENGTH.name, required: 'A title is required.' }),
  description: optionalText(MAX_LENGTH.description),
});
/** Type of {@link changeRequestInputSchema}. */
export type ChangeRequestInput = z.infer<typeof changeRequestInputSchema>;

/** Most characters a comment on a change request (or a review's) may have. */
export const CHANGE_REQUEST_COMMENT_MAX = MAX_LENGTH.description;

/** `POST …/change-requests/{id}/reviews`. */
export const reviewInputSchema = z.strictObject({
  decision: z.enum(REVIEW_DECISIONS, { error: 'Approve, request changes or reject.' }),
  comment: optionalText(CHANGE_REQUEST_COMMENT_MAX),
});
/** Type of {@link reviewInputSchema}. */
export type ReviewInput = z.infer<typeof reviewInputSchema>;

/** `POST …/change-requests/{id}/comments`. */
export const commentInputSchema = z.strictObject({
  text: text({ max: CHANGE_REQUEST_COMMENT_MAX, required: 'Write a comment first.' }),
});
/** Type of {@link commentInputSchema}. */
export type CommentInput = z.infer<typeof commentInputSchema>;

/**
 * `POST …/change-requests/{id}/changes`, kind `control`: the body `PUT /api/v1/feature-controls`
 * takes (the control by id, its switch, off variant and rules), to be written when the request is
 * applied. A later change of the same control replaces the earlier one.
 */
export const controlChangeInputSchema = featureControlInput.extend({ kind: z.literal('control') });

/**
 * Kind `restore`: an older version brought forward, as `POST …/versions/{number}/restore` takes it:
 * of the feature's control in the request's environment, of its settings, or of a segment there.
 */
export const restoreChangeInputSchema = restoreVersionInput.extend({
  kind: z.literal('restore'),
  /**
   * What is restored: a feature's targeting in the request's environment (the default), a feature's
   * settings, or a segment of the request's environment.
   */
  of: z
    .enum(['targeting', 'settings', 'segment'], { error: 'Restore targeting, settings or a segment.' })
    .default('targeting'),
  /** The feature, for its targeting or settings. */
  featureKey: z.string().min(1, 'Feature key is required').optional(),
  /** The segment, for a segment. */
  segmentKey: z.string().min(1, 'Segment key is required').optional(),
  number: z.number({ error: 'Version number is required' }).int().min(1),
});

/**
 * Kind `feature`: a feature's settings as `PUT /api/v1/projects/{projectKey}/features` takes them
 * (the feature by id). Settings apply to every environment of the project: a project with a
 * protected environment takes them only through a request of one of its protected environments.
 */
export const featureChangeInputSchema = featureInput.extend({ kind: z.literal('feature'), id: idSchema });

/** Kind `segment`: a segment of the request's environment as `PUT /api/v2/segments` takes it. */
export const segmentChangeInputSchema = segmentInput.extend({ kind: z.literal('segment'), id: idSchema });

/**
 * Kind `schedule`: a one-off change, a recurring change or a ramp of a feature in the request's
 * environment (docs/adr/0025-scheduler.md), as `POST …/schedules` takes it; applying the request makes
 * the schedule, approved by it: its steps need no other approval. A request may hold several.
 */
export const scheduleChangeInputSchema = z.strictObject({
  kind: z.literal('schedule'),
  schedule: scheduleInputSchema,
});

/** What `POST …/changes` takes: one of the change kinds a request holds. */
export const changeInputSchema = z.discriminatedUnion(
  'kind',
  [
    controlChangeInputSchema,
    restoreChangeInputSchema,
    featureChangeInputSchema,
    segmentChangeInputSchema,
    scheduleChangeInputSchema,
  ],
  { error: 'Kind must be control, restore, feature, segment or schedule.' },
);
/** Type of {@link changeInputSchema}. */
export type ChangeInput = z.infer<typeof changeInputSchema>;

/**
 * `GET …/environments/{environmentKey}/change-request-policy`, for every member: whether the
 * environment asks for change requests, whether the caller may write without one, and where
 * "Add to change request" puts the caller's change: their open request that already changes the
 * control named by `featureControlId` (an edit of it), else their newest draft there, else none.
 */
export const changeRequestPolicySchema = z.object({
  required: z.boolean(),
  mayBypass: z.boolean(),
  changeRequestId: idSchema.nullable(),
});
/** Query of the policy: what is about to be changed (a control, a feature's settings, a segment), if known. */
export const changeRequestPolicyQuery = z.object({
  featureControlId: idSchema.optional(),
  featureId: idSchema.optional(),
  segmentId: idSchema.optional(),
});
/** Type of {@link changeRequestPolicyQuery}. */
export type ChangeRequestPolicyQuery = z.infer<typeof changeRequestPolicyQuery>;
/** Type of {@link changeRequestPolicySchema}. */
export type ChangeRequestPolicy = z.infer<typeof changeRequestPolicySchema>;

/** Path of one change request of a project. */
export const changeRequestParams = z.object({ projectKey: z.string(), id: idSchema });
/**
 * `POST …/change-requests/{id}/changes/{changeId}/rebase`: brings a change up to date with what is
 * live, for its author: its parts that merge take the merge, and each part in conflict (named as
 * `conflicts[].part` names it) keeps the side chosen here, `live` or `proposed`. The change is then
 * drafted on the live version; like any edit, the request goes back to review.
 */
export const rebaseInputSchema = z.strictObject({
  keep: z.record(z.string(), z.enum(['live', 'proposed'], { error: 'Keep live or proposed.' })).default({}),
});
/** Type of {@link rebaseInputSchema}. */
export type RebaseInput = z.infer<typeof rebaseInputSchema>;

/** Why a rebase is refused: a part in conflict that the body chose no side for. */
export function unchosenConflictMessage(label: string): string {
  return `Choose what to keep for ${label}.`;
}

/** Path of one change of a change request. */
export const changeRequestChangeParams = changeRequestParams.extend({ changeId: idSchema });
/** Path of one environment's approval settings. */
export const approvalSettingsParams = z.object({ projectKey: z.string(), environmentKey: z.string() });

/** Most requests one page of the list holds. */
export const CHANGE_REQUEST_PAGE_SIZE = 20;

/** Query of `GET …/change-requests`: a state, the caller's own, those waiting for the caller's review. */
export const changeRequestListQuery = z.object({
  state: z
    .enum(CHANGE_REQUEST_STATES, { error: `State must be one of ${CHANGE_REQUEST_STATES.join(', ')}.` })
    .optional(),
  author: z.literal('me', { error: 'author can only be "me".' }).optional(),
  reviewer: z.literal('me', { error: 'reviewer can only be "me".' }).optional(),
  environmentKey: z.string().min(1).optional(),
  page: z.coerce.number().int().min(0).default(0),
});
/** Type of {@link changeRequestListQuery}. */
export type ChangeRequestListQuery = z.infer<typeof changeRequestListQuery>;

const person = z.object({ id: z.string(), name: z.string() });

/** One request in a list. */
export const changeRequestSummarySchema = z.object({
  id: idSchema,
  projectKey: z.string(),
  environmentKey: z.string(),
  environmentName: z.string(),
  title: z.string(),
  description: z.string(),
  state: z.enum(CHANGE_REQUEST_STATES),
  author: person,
  changeCount: z.number().int().min(0),
  /** Approvals that count now, and how many the environment asks for. */
  approvals: z.number().int().min(0),
  minApprovals: z.number().int().min(1),
  /** Why a suspended request stopped: the parts that conflict and who changed them. */
  suspendedReason: z.string().nullable(),
  createdDate: dateTimeSchema,
  updatedDate: dateTimeSchema,
});
/** Type of {@link changeRequestSummarySchema}. */
export type ChangeRequestSummary = z.infer<typeof changeRequestSummarySchema>;

/** Response of `GET …/change-requests`, newest activity first. */
export const changeRequestPageSchema = z.object({
  content: z.array(changeRequestSummarySchema),
  totalElements: z.number().int().min(0),
  last: z.boolean(),
});
/** Type of {@link changeRequestPageSchema}. */
export type ChangeRequestPage = z.infer<typeof changeRequestPageSchema>;

/** A part both the request and someone since changed differently (see change-requests/merge.ts). */
export const mergeConflictSchema = z.object({
  part: z.string(),
  label: z.string(),
  base: z.unknown(),
  live: z.unknown(),
  proposed: z.unknown(),
});

/** One change of a request, with its diff against what is live. */
export const changeRequestChangeSchema = z.object({
  id: idSchema,
  kind: z.enum(CHANGE_KINDS),
  resourceType: z.enum(VERSIONED_RESOURCES),
  resourceId: idSchema,
  featureKey: z.string().nullable(),
  /** The feature's (or segment's) name, to show. */
  resourceName: z.string(),
  /** The version the change was drafted on, and the live one now. */
  baseVersion: z.number().int().nullable(),
  liveVersion: z.number().int().nullable(),
  /** A restore: the version it brings forward. */
  restoredFrom: z.number().int().nullable(),
  comment: z.string().nullable(),
  /** What is live, what the request proposes, and what applying it would write (the merge). */
  live: z.record(z.string(), z.unknown()),
  proposed: z.record(z.string(), z.unknown()),
  merged: z.record(z.string(), z.unknown()),
  /** What applying it would change, as sentences ("Turned on", "Rule 2: …"); empty when nothing. */
  changes: z.array(z.string()),
  /** Parts the author must decide before it can be applied. */
  conflicts: z.array(mergeConflictSchema),
});
/** Type of {@link changeRequestChangeSchema}. */
export type ChangeRequestChange = z.infer<typeof changeRequestChangeSchema>;

/** What the timeline of a request shows. */
export const TIMELINE_KINDS = [
  'created',
  'change-added',
  'change-removed',
  'submitted',
  'review',
  'comment',
  'applied',
  'suspended',
  'cancelled',
] as const;

/** One entry of a request's timeline, oldest first. */
export const changeRequestTimelineEntrySchema = z.object({
  id: idSchema,
  kind: z.enum(TIMELINE_KINDS),
  /** Who did it; null for the system (a suspension found at apply). */
  by: person.nullable(),
  at: dateTimeSchema,
  /** A review's decision. */
  decision: z.enum(REVIEW_DECISIONS).nullable(),
  /** A comment, a review's comment, a suspension's reason, or the change added or removed. */
  text: z.string().nullable(),
  /** The request's round when it happened: an approval of an earlier round may no longer count. */
  round: z.number().int().min(0),
});
/** Type of {@link changeRequestTimelineEntrySchema}. */
export type ChangeRequestTimelineEntry = z.infer<typeof changeRequestTimelineEntrySchema>;

/** The buttons of a request's page. */
export const CHANGE_REQUEST_BUTTONS = [
  'edit',
  'submit',
  'approve',
  'request-changes',
  'reject',
  'apply',
  'cancel',
] as const;
/** One of {@link CHANGE_REQUEST_BUTTONS}. */
export type ChangeRequestButton = (typeof CHANGE_REQUEST_BUTTONS)[number];

/** Whether the caller may press a button now, and why not. */
export const buttonStateSchema = z.object({ allowed: z.boolean(), reason: z.string().nullable() });

/** Response of `GET …/change-requests/{id}` and of every action on one. */
export const changeRequestSchema = changeRequestSummarySchema.extend({
  round: z.number().int().min(0),
  settings: approvalSettingsSchema,
  changes: z.array(changeRequestChangeSchema),
  timeline: z.array(changeRequestTimelineEntrySchema),
  /** Reviewers whose request for changes is not answered yet, by name. */
  changesRequestedBy: z.array(z.string()),
  /** For each button, whether the caller may press it now and why not. */
  actions: z.record(z.enum(CHANGE_REQUEST_BUTTONS), buttonStateSchema),
});
/** Type of {@link changeRequestSchema}. */
export type ChangeRequest = z.infer<typeof changeRequestSchema>;

/** `GET /api/v1/change-requests/waiting`: requests in review the caller may approve and has not. */
export const waitingCountSchema = z.object({ count: z.number().int().min(0) });
/** Type of {@link waitingCountSchema}. */
export type WaitingCount = z.infer<typeof waitingCountSchema>;

/** `POST …/change-requests/{id}/preview`: a user as an SDK would send it. */
export const previewInputSchema = z.strictObject({
  user: z.strictObject({
    id: z.string().min(1, 'User id is required').max(MAX_LENGTH.keyInput),
    attributes: z
      .record(z.string(), z.union([conditionValueSchema, z.array(conditionValueSchema)]))
      .default({}),
  }),
});
/** Type of {@link previewInputSchema}. */
export type PreviewInput = z.infer<typeof previewInputSchema>;

const served = z.object({ variantKey: z.string(), variantName: z.string() });

/** Response of the preview: per changed feature, what the user is served now and after the request. */
export const previewSchema = z.object({
  features: z.array(
    z.object({ featureKey: z.string(), featureName: z.string(), before: served, after: served }),
  ),
});
/** Type of {@link previewSchema}. */
export type Preview = z.infer<typeof previewSchema>;
