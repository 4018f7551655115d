import {
  FINAL_CHANGE_REQUEST_STATES,
  type ApprovalSettings,
  type ChangeRequest,
  type ChangeRequestChange,
  type ChangeRequestSummary,
  type ChangeRequestTimelineEntry,
  type RequestActor,
  type RequestFacts,
} from '@vexil/core';
import { buttonsFor, tallyOf } from './change-request-facts';
import type { ChangeRow, EventRow, RequestInScope } from './change-requests.repository';
import { viewOf, type ChangePlan } from './change-plan';

/*
 * How a change request reads in the API: a summary in lists, and the whole request (changes against
 * what is live, timeline, what the caller may do) on its page.
 */

/** A request in a list. */
export function summaryOf(
  found: RequestInScope,
  facts: RequestFacts,
  settings: ApprovalSettings,
): ChangeRequestSummary {
  const { request, project, environment } = found;
  return {
    id: request.id,
    projectKey: project.key,
    environmentKey: environment.key,
    environmentName: environment.name,
    title: request.title,
    description: request.description,
    state: request.state,
    author: { id: request.authorId ?? '', name: request.authorName },
    changeCount: facts.changeCount,
    approvals: tallyOf(facts, settings).approvals,
    minApprovals: settings.minApprovals,
    suspendedReason: request.suspendedReason,
    createdDate: request.createdAt.toISOString(),
    updatedDate: request.updatedAt.toISOString(),
  };
}

/** One entry of the timeline. */
function entryOf(event: EventRow): ChangeRequestTimelineEntry {
  return {
    id: event.id,
    kind: event.kind,
    by: event.actorName === null ? null : { id: event.actorId ?? '', name: event.actorName },
    at: event.createdAt.toISOString(),
    decision: event.decision,
    text: event.text,
    round: event.round,
  };
}

/** A change whose resource is archived or deleted: it can no longer be applied. */
function orphanView(change: ChangeRow): ChangeRequestChange {
  return {
    id: change.id,
    kind: change.kind,
    resourceType: change.resourceType,
    resourceId: change.resourceId,
    featureKey: null,
    resourceName: change.resourceType === 'segment' ? 'A deleted segment' : 'An archived feature',
    baseVersion: change.baseVersion,
    liveVersion: null,
    restoredFrom: change.restoredFrom,
    comment: change.comment,
    live: {},
    proposed: change.proposed,
    merged: {},
    changes: [],
    conflicts: [{ part: 'resource', label: 'It is gone', base: null, live: null, proposed: null }],
  };
}

/** The whole request, as `actor` sees it. */
export function detailOf(
  found: RequestInScope,
  facts: RequestFacts,
  settings: ApprovalSettings,
  actor: RequestActor,
  parts: {
    changes: readonly ChangeRow[];
    plans: ReadonlyMap<string, ChangePlan | null>;
    events: readonly EventRow[];
  },
): ChangeRequest {
  const tally = tallyOf(facts, settings);
  const names = new Map(parts.events.map((event) => [event.actorId, event.actorName]));
  return {
    ...summaryOf(found, facts, settings),
    round: found.request.round,
    settings,
    changes: parts.changes.map((change) => {
      const plan = parts.plans.get(change.id);
      const closed = FINAL_CHANGE_REQUEST_STATES.includes(found.request.state);
      return plan ? viewOf(plan, closed) : orphanView(change);
    }),
    timeline: parts.events.map(entryOf),
    changesRequestedBy: tally.changesRequestedBy.map((id) => names.get(id) ?? 'A former member'),
    actions: buttonsFor(facts, actor, settings),
  };
}
