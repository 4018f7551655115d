import {
  changeRequestsIn,
  CHANGE_REQUEST_BUTTONS,
  DEFAULT_APPROVAL_SETTINGS,
  can,
  isOrganisationAdmin,
  nextState,
  tallyReviews,
  type ApprovalSettings,
  type ChangeRequestAction,
  type ChangeRequestButton,
  type RecordedReview,
  type RequestActor,
  type RequestFacts,
} from '@vexil/core';
import type { Principal } from '../auth/auth.service';
import type { EventRow, RequestInScope } from './change-requests.repository';

/*
 * What the rules of core's change-requests/ read, built from the stored request: its facts, the
 * actor's rights in its environment, and for the request's page what each button would do.
 */

/** An environment's settings; one never saved asks for no change requests. */
export function settingsOrDefault(settings: ApprovalSettings | null): ApprovalSettings {
  return settings ?? DEFAULT_APPROVAL_SETTINGS;
}

/** The reviews a request's timeline records. */
export function reviewsOf(events: readonly EventRow[]): RecordedReview[] {
  return events.flatMap((event) =>
    event.kind === 'review' && event.decision && event.actorId
      ? [{ reviewerId: event.actorId, decision: event.decision, round: event.round }]
      : [],
  );
}

/** The request as `nextState` reads it. */
export function factsOf(
  found: RequestInScope,
  changeCount: number,
  events: readonly EventRow[],
): RequestFacts {
  return {
    state: found.request.state,
    // A request whose author left is nobody's: no member is its author.
    authorId: found.request.authorId ?? '',
    round: found.request.round,
    changeCount,
    reviews: reviewsOf(events),
  };
}

/** The permission resource of a request's environment. */
export function requestsOf(found: Pick<RequestInScope, 'environment' | 'project'>) {
  return changeRequestsIn(found.environment, found.project.id);
}

/** Who acts, with their rights in the request's environment. */
export function actorOf(
  principal: Principal,
  found: Pick<RequestInScope, 'environment' | 'project'>,
): RequestActor {
  return {
    id: principal.userId,
    mayApprove: can(principal, 'approve', requestsOf(found)),
    mayAdminister: isOrganisationAdmin(principal),
  };
}

/** The count of approvals and who asked for changes. */
export function tallyOf(facts: RequestFacts, settings: ApprovalSettings) {
  return tallyReviews(facts.reviews, { authorId: facts.authorId, round: facts.round }, settings);
}

const BUTTON_ACTIONS: Record<ChangeRequestButton, ChangeRequestAction> = {
  edit: { type: 'edit' },
  submit: { type: 'submit' },
  approve: { type: 'review', decision: 'approve' },
  'request-changes': { type: 'review', decision: 'request-changes' },
  reject: { type: 'review', decision: 'reject' },
  apply: { type: 'apply', conflict: false },
  cancel: { type: 'cancel' },
};

/** For each button of the request's page, whether the actor may press it now, and why not. */
export function buttonsFor(
  facts: RequestFacts,
  actor: RequestActor,
  settings: ApprovalSettings,
): Record<ChangeRequestButton, { allowed: boolean; reason: string | null }> {
  return Object.fromEntries(
    CHANGE_REQUEST_BUTTONS.map((button) => {
      const answer = nextState(facts, actor, BUTTON_ACTIONS[button], settings);
      return [
        button,
        answer.ok ? { allowed: true, reason: null } : { allowed: false, reason: answer.message },
      ];
    }),
  ) as Record<ChangeRequestButton, { allowed: boolean; reason: string | null }>;
}
