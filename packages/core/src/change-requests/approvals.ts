import type { ApprovalSettings, ReviewDecision } from '../schemas/change-requests';

/**
 * A review as a request keeps it. `round` is the request's edit count when the review was given:
 * each edit of a request in review starts a new round, which is how approvals are withdrawn when
 * the settings ask for it and how a request for changes is answered.
 */
export type RecordedReview = { reviewerId: string; decision: ReviewDecision; round: number };

/** Where a request's reviews stand for the approval settings. */
export type ReviewTally = {
  /** Distinct reviewers whose latest decision approves and counts. */
  approvals: number;
  /** How many the settings ask for. */
  needed: number;
  /** Reviewers whose request for changes the author has not answered with an edit yet. */
  changesRequestedBy: string[];
  /** Whether the request may be applied: enough approvals and no unanswered request for changes. */
  approved: boolean;
};

/**
 * Counts a request's reviews: each reviewer's latest decision only; the author's own approval only
 * with `allowSelfApproval`; approvals of earlier rounds only when edits do not withdraw them
 * (`resetApprovalsOnChange` off); a request for changes only in the current round, since an edit
 * answers it. A rejection ends the request (states.ts) and so is never counted here.
 */
export function tallyReviews(
  reviews: readonly RecordedReview[],
  request: { authorId: string; round: number },
  settings: Pick<ApprovalSettings, 'minApprovals' | 'allowSelfApproval' | 'resetApprovalsOnChange'>,
): ReviewTally {
  const latest = new Map<string, RecordedReview>();
  for (const review of reviews) {
    const before = latest.get(review.reviewerId);
    if (!before || review.round >= before.round) latest.set(review.reviewerId, review);
  }
  let approvals = 0;
  const changesRequestedBy: string[] = [];
  for (const review of latest.values()) {
    const current = review.round === request.round;
    if (review.decision === 'request-changes' && current) changesRequestedBy.push(review.reviewerId);
    if (review.decision !== 'approve') continue;
    if (review.reviewerId === request.authorId && !settings.allowSelfApproval) continue;
    if (current || !settings.resetApprovalsOnChange) approvals += 1;
  }
  return {
    approvals,
    needed: settings.minApprovals,
    changesRequestedBy: changesRequestedBy.sort(),
    approved: approvals >= settings.minApprovals && changesRequestedBy.length === 0,
  };
}

/** The permission resource of an environment's change requests (what `approve` and `bypass` act on). */
export function changeRequestsIn(
  environment: { production: boolean; tags: readonly string[] },
  projectId: string,
) {
  return {
    type: 'changeRequest' as const,
    environment: { production: environment.production, tags: environment.tags, projectId },
  };
}
