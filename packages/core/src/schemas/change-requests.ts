import { z } from 'zod';
import { MAX_LENGTH, environmentKeySchema, optionalText, text } from './common';

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

/** What a reviewer decides. */
export const REVIEW_DECISIONS = ['approve', 'request-changes', 'reject'] as const;
/** One of {@link REVIEW_DECISIONS}. */
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** What a change in a request changes: the body of the direct write it stands for. */
export const CHANGE_KINDS = ['control', 'feature', 'segment', 'restore'] as const;
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

/** `POST …/change-requests/{id}/reviews`. */
export const reviewInputSchema = z.strictObject({
  decision: z.enum(REVIEW_DECISIONS, { error: 'Approve, request changes or reject.' }),
  comment: optionalText(MAX_LENGTH.comment),
});
/** Type of {@link reviewInputSchema}. */
export type ReviewInput = z.infer<typeof reviewInputSchema>;
