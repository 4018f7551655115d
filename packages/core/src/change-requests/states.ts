import {
  FINAL_CHANGE_REQUEST_STATES,
  type ApprovalSettings,
  type ChangeRequestState,
  type ReviewDecision,
} from '../schemas/change-requests';
import { tallyReviews, type RecordedReview } from './approvals';

/*
 * How a change request moves between states (docs/adr/0024-change-requests.md). The server asks
 * `nextState` before it writes anything and stores what it answers, so the rules live once, here,
 * and the dashboard asks the same function why a button is disabled.
 */

/** What someone does to a request. */
export type ChangeRequestAction =
  | { type: 'edit' }
  | { type: 'submit' }
  | { type: 'review'; decision: ReviewDecision }
  /** `conflict`: a change no longer starts from the live version of its resource. */
  | { type: 'apply'; conflict: boolean }
  | { type: 'cancel' };

/** The request as the rules need it. */
export type RequestFacts = {
  state: ChangeRequestState;
  authorId: string;
  /** Edits so far (see approvals.ts); an edit answers the action with `round + 1`. */
  round: number;
  changeCount: number;
  reviews: readonly RecordedReview[];
};

/** Who acts, and what they may do in the request's environment. */
export type RequestActor = {
  id: string;
  /** May approve requests of this environment (an admin, a production editor in production, an `approve` grant). */
  mayApprove: boolean;
  /** An organisation admin, who may cancel anyone's request. */
  mayAdminister: boolean;
};

/** Machine-readable reasons a request refuses an action; each comes with a sentence for people. */
export const CHANGE_REQUEST_REFUSALS = {
  closed: 'This change request is closed.',
  notAuthor: 'Only the author of this change request can do that.',
  empty: 'Add a change before submitting.',
  notInReview: 'This change request is not waiting for reviews.',
  notReviewer: 'You cannot review change requests of this environment.',
  selfApproval: 'You cannot approve your own change request.',
  ownRequest: 'Edit or cancel your own change request instead.',
  notApproved: 'This change request needs its approvals before it can be applied.',
  notApplier: 'Only the author or a reviewer of this environment can apply this change request.',
  draftOnlyForAuthor: 'This change request is still a draft.',
} as const;

/** One of {@link CHANGE_REQUEST_REFUSALS}' keys. */
export type ChangeRequestRefusal = keyof typeof CHANGE_REQUEST_REFUSALS;

export type NextState =
  | {
      ok: true;
      state: ChangeRequestState;
      /** The request's round after the action (an edit starts a new one). */
      round: number;
      /** The action's review is to be recorded (a review). */
      records?: RecordedReview;
      /**
       * The request is to be applied now: an apply without conflict, or the last approval needed
       * with `autoApply`, which the server follows at once with an `apply` by the same reviewer
       * (applied, or suspended on a conflict).
       */
      applies: boolean;
    }
  | { ok: false; refusal: ChangeRequestRefusal; message: string };

function refuse(refusal: ChangeRequestRefusal): NextState {
  return { ok: false, refusal, message: CHANGE_REQUEST_REFUSALS[refusal] };
}

/** Where reviews leave a request that is waiting for them. */
function reviewed(
  request: RequestFacts,
  reviews: readonly RecordedReview[],
  round: number,
  settings: ApprovalSettings,
): ChangeRequestState {
  return tallyReviews(reviews, { authorId: request.authorId, round }, settings).approved
    ? 'approved'
    : 'in-review';
}

/**
 * The state `action` takes the request to, or why it is refused. Applying an approved request whose
 * changes no longer start from the live versions suspends it instead; editing a suspended request
 * (bringing its changes up to date) returns it to review, as any edit under review does.
 */
export function nextState(
  request: RequestFacts,
  actor: RequestActor,
  action: ChangeRequestAction,
  settings: ApprovalSettings,
): NextState {
  if (FINAL_CHANGE_REQUEST_STATES.includes(request.state)) return refuse('closed');
  const isAuthor = actor.id === request.authorId;
  const stay = { round: request.round, applies: false } as const;
  switch (action.type) {
    case 'edit': {
      if (!isAuthor) return refuse('notAuthor');
      if (request.state === 'draft') return { ok: true, state: 'draft', ...stay };
      const round = request.round + 1;
      return { ok: true, state: reviewed(request, request.reviews, round, settings), round, applies: false };
    }
    case 'submit': {
      if (!isAuthor) return refuse('notAuthor');
      if (request.state !== 'draft') return refuse('notInReview');
      if (request.changeCount === 0) return refuse('empty');
      return { ok: true, state: reviewed(request, request.reviews, request.round, settings), ...stay };
    }
    case 'review': {
      if (request.state === 'draft') return refuse('draftOnlyForAuthor');
      if (request.state !== 'in-review' && request.state !== 'approved') return refuse('notInReview');
      if (!actor.mayApprove) return refuse('notReviewer');
      if (isAuthor && action.decision === 'approve' && !settings.allowSelfApproval)
        return refuse('selfApproval');
      // An author answers a review with an edit, or withdraws with Cancel: they do not review themselves.
      if (isAuthor && action.decision !== 'approve') return refuse('ownRequest');
      const records: RecordedReview = {
        reviewerId: actor.id,
        decision: action.decision,
        round: request.round,
      };
      if (action.decision === 'reject') return { ok: true, state: 'rejected', records, ...stay };
      const state = reviewed(request, [...request.reviews, records], request.round, settings);
      const applies = state === 'approved' && request.state !== 'approved' && settings.autoApply;
      return { ok: true, state, records, round: request.round, applies };
    }
    case 'apply': {
      if (!isAuthor && !actor.mayApprove) return refuse('notApplier');
      if (request.state !== 'approved') return refuse('notApproved');
      if (action.conflict) return { ok: true, state: 'suspended', ...stay };
      return { ok: true, state: 'applied', round: request.round, applies: true };
    }
    case 'cancel': {
      if (!isAuthor && !actor.mayAdminister) return refuse('notAuthor');
      return { ok: true, state: 'cancelled', ...stay };
    }
  }
}
