import {
  nextState,
  type ChangeInput,
  type ChangeRequest,
  type ChangeRequestAction,
  type ChangeRequestInput,
  type ChangeRequestRefusal,
  type ChangeRequestTransition,
  type RebaseInput,
  type ReviewInput,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { AppError, NotFoundError, assertAllowed } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { ControlsService } from '../controls/controls.service';
import type { FeaturesService } from '../features/features.service';
import type { SegmentsService } from '../segments/segments.service';
import type { SchedulesService } from '../schedules/schedules.service';
import type { Scope } from '../scope/scope.service';
import type { VersionsService } from '../versions/versions.service';
import type { ChangeEvents } from '../../lib/change-events';
import { createChangeRequestApply } from './change-request-apply';
import type { ChangeRequestNotices } from './change-request-notices';
import { createChangeRequestReads, type LoadedRequest } from './change-request-reads';
import { actorOf, requestsOf } from './change-request-facts';
import * as repo from './change-requests.repository';
import type { NewEvent, RequestInScope } from './change-requests.repository';
import { createChangeKinds } from './change-kinds';
import { rebased } from './change-plan';

export type ChangeRequestsService = ReturnType<typeof createChangeRequestsService>;

/** Refusals that are about who acts (403) rather than where the request stands (409). */
const WHO: readonly ChangeRequestRefusal[] = ['notAuthor', 'notReviewer', 'selfApproval', 'notApplier'];

function refused(refusal: ChangeRequestRefusal, message: string): AppError {
  return WHO.includes(refusal)
    ? new AppError(403, message, undefined, undefined, 'forbidden')
    : new AppError(409, message, undefined, undefined, 'conflict');
}

/** What a member's action leaves to run once its transaction commits. */
type AfterCommit = (() => void)[];

/**
 * Change requests (docs/adr/0024-change-requests.md): drafts, their changes, submission, reviews,
 * comments, cancel and apply. Every move locks the request's row and asks core's `nextState`, so
 * concurrent approvals or applies are decided one after the other and apply at most once.
 */
export function createChangeRequestsService(deps: {
  db: Database;
  audit: AuditService;
  scope: Scope;
  controls: ControlsService;
  features: FeaturesService;
  segments: SegmentsService;
  versions: VersionsService;
  events: ChangeEvents;
  /** Who is told of each transition (change-request-notices.ts); nothing when left out. */
  notices?: ChangeRequestNotices;
  /**
   * The schedules a request makes (kind `schedule`), asked when a change is added or applied: the
   * schedules module is made after this one, since its steps apply requests.
   */
  schedules?: () => SchedulesService['forChangeRequests'];
}) {
  const { db, scope, events } = deps;

  /** Tells of a transition in `tx`, and publishes it to the open dashboards once `tx` commits. */
  async function tell(
    tx: Executor,
    context: Loaded,
    after: AfterCommit,
    transition: ChangeRequestTransition,
    details: { comment?: string | null; reason?: string | null } = {},
  ) {
    if (!deps.notices) return;
    const change = await deps.notices.told(tx, context.principal, context.found, transition, details);
    after.push(() =>
      events.publish({ type: 'dashboard', organisationId: context.principal.organisationId, change }),
    );
  }
  const kinds = createChangeKinds({
    controls: deps.controls.forChangeRequests,
    features: deps.features.forChangeRequests,
    segments: deps.segments.forChangeRequests,
    versions: deps.versions,
    audit: deps.audit,
    schedules: () => {
      if (!deps.schedules) throw new Error('Schedules are not available to change requests here');
      return deps.schedules();
    },
  });
  const apply = createChangeRequestApply({ kinds });
  const reads = createChangeRequestReads({ db, scope, kinds });
  const { locate, load, get } = reads;

  type Loaded = LoadedRequest & { found: RequestInScope; principal: Principal };

  function event(
    context: Loaded,
    kind: NewEvent['kind'],
    round: number,
    extra: Partial<Pick<NewEvent, 'decision' | 'text'>> = {},
  ): NewEvent {
    return {
      organisationId: context.principal.organisationId,
      changeRequestId: context.found.request.id,
      kind,
      actorId: context.principal.userId,
      actorName: context.principal.email,
      decision: extra.decision ?? null,
      text: extra.text ?? null,
      round,
    };
  }

  /** Asks the rules; refuses what they refuse. */
  function decide(context: Loaded, action: ChangeRequestAction) {
    const answer = nextState(
      context.facts,
      actorOf(context.principal, context.found),
      action,
      context.settings,
    );
    if (!answer.ok) throw refused(answer.refusal, answer.message);
    return answer;
  }

  /**
   * Runs `step` on the locked request, then what it left for after the commit, and answers the
   * request as it now stands.
   */
  async function act(
    principal: Principal,
    projectKey: string,
    id: string,
    step: (tx: Executor, context: Loaded, after: AfterCommit) => Promise<void>,
  ): Promise<ChangeRequest> {
    const after: AfterCommit = [];
    await db.transaction(async (tx) => {
      const found = await locate(tx, principal, projectKey, id, true);
      const loaded = await load(tx, principal.organisationId, found);
      await step(tx, { ...loaded, found, principal }, after);
    });
    for (const run of after) run();
    return get(principal, projectKey, id);
  }

  /** Applies the locked request now, or suspends it on a conflict (an `apply`, or `autoApply`). */
  async function applyNow(tx: Executor, context: Loaded, after: AfterCommit) {
    const outcome = await apply.plan(tx, context.principal.organisationId, context.changes);
    const answer = decide(context, { type: 'apply', conflict: outcome.conflict });
    if (answer.state === 'suspended') {
      await repo.updateRequest(tx, context.principal.organisationId, context.found.request.id, {
        state: 'suspended',
        suspendedReason: outcome.reason,
      });
      await repo.insertEvents(tx, [
        { ...event(context, 'suspended', answer.round, { text: outcome.reason }) },
      ]);
      return;
    }
    after.push(...(await apply.write(tx, context.principal, context.found.request, outcome.plans)));
    await repo.updateRequest(tx, context.principal.organisationId, context.found.request.id, {
      state: 'applied',
      suspendedReason: null,
    });
    await repo.insertEvents(tx, [event(context, 'applied', answer.round)]);
    await tell(tx, context, after, 'applied');
  }

  /** An edit: the change written by `write`, then the request's state and round as the rules say. */
  function edit(
    write: (
      tx: Executor,
      context: Loaded,
    ) => Promise<{ kind: 'change-added' | 'change-removed'; text: string }>,
  ) {
    return async (tx: Executor, context: Loaded) => {
      const answer = decide(context, { type: 'edit' });
      const written = await write(tx, context);
      await repo.updateRequest(tx, context.principal.organisationId, context.found.request.id, {
        state: answer.state,
        round: answer.round,
        ...(answer.state === 'suspended' ? {} : { suspendedReason: null }),
      });
      await repo.insertEvents(tx, [event(context, written.kind, answer.round, { text: written.text })]);
    };
  }

  return {
    get,
    list: reads.list,
    waiting: reads.waiting,
    preview: reads.preview,

    /** POST …/change-requests: a new draft of the caller's, for one environment of the project. */
    async create(
      principal: Principal,
      projectKey: string,
      input: ChangeRequestInput,
    ): Promise<ChangeRequest> {
      const id = await db.transaction(async (tx) => {
        const environment = await scope.environment(
          tx,
          principal.organisationId,
          projectKey,
          input.environmentKey,
        );
        assertAllowed(principal, 'create', requestsOf({ environment, project: environment.project }));
        const request = await repo.insertRequest(tx, {
          organisationId: principal.organisationId,
          projectId: environment.project.id,
          environmentId: environment.id,
          authorId: principal.userId,
          authorName: principal.email,
          title: input.title,
          description: input.description ?? '',
          state: 'draft',
        });
        await repo.insertEvents(tx, [
          {
            organisationId: principal.organisationId,
            changeRequestId: request.id,
            kind: 'created',
            actorId: principal.userId,
            actorName: principal.email,
            round: 0,
          },
        ]);
        return request.id;
      });
      return get(principal, projectKey, id);
    },

    /** POST …/{id}/changes: adds a change, or replaces the request's change of the same control. */
    addChange(principal: Principal, projectKey: string, id: string, input: ChangeInput) {
      return act(
        principal,
        projectKey,
        id,
        edit(async (tx, context) => {
          const { label, ...change } = await kinds.resolve(tx, principal, context.found, input);
          await repo.upsertChange(tx, {
            ...change,
            organisationId: principal.organisationId,
            changeRequestId: context.found.request.id,
          });
          return { kind: 'change-added' as const, text: label };
        }),
      );
    },

    /** DELETE …/{id}/changes/{changeId}. */
    removeChange(principal: Principal, projectKey: string, id: string, changeId: string) {
      return act(
        principal,
        projectKey,
        id,
        edit(async (tx, context) => {
          const removed = await repo.deleteChange(
            tx,
            principal.organisationId,
            context.found.request.id,
            changeId,
          );
          if (!removed) throw new NotFoundError('change', changeId);
          const plan = await kinds.plan(tx, principal.organisationId, removed);
          return {
            kind: 'change-removed' as const,
            text: plan?.resourceName ?? 'Something archived or deleted',
          };
        }),
      );
    },

    /**
     * POST …/{id}/changes/{changeId}/rebase: the change brought up to date with what is live (the
     * merge, each conflict keeping the side chosen), drafted on the live version: an edit.
     */
    rebase(principal: Principal, projectKey: string, id: string, changeId: string, input: RebaseInput) {
      return act(
        principal,
        projectKey,
        id,
        edit(async (tx, context) => {
          const change = context.changes.find((c) => c.id === changeId);
          if (!change) throw new NotFoundError('change', changeId);
          const plan = await kinds.plan(tx, principal.organisationId, change, { forUpdate: true });
          if (!plan) throw new AppError(409, 'What this change changes was archived or deleted: remove it.');
          const { id: _id, createdAt: _created, updatedAt: _updated, ...kept } = change;
          await repo.upsertChange(tx, {
            ...kept,
            baseVersion: plan.liveVersion,
            proposed: rebased(plan, input.keep),
          });
          return { kind: 'change-added' as const, text: `${plan.resourceName} brought up to date` };
        }),
      );
    },

    /** POST …/{id}/submit: the draft goes to review. */
    submit(principal: Principal, projectKey: string, id: string) {
      return act(principal, projectKey, id, async (tx, context, after) => {
        const answer = decide(context, { type: 'submit' });
        await repo.updateRequest(tx, principal.organisationId, id, { state: answer.state });
        await repo.insertEvents(tx, [event(context, 'submitted', answer.round)]);
        await tell(tx, context, after, 'submitted');
      });
    },

    /** POST …/{id}/reviews: approve, request changes or reject; the last approval needed may apply it. */
    review(principal: Principal, projectKey: string, id: string, input: ReviewInput) {
      return act(principal, projectKey, id, async (tx, context, after) => {
        const answer = decide(context, { type: 'review', decision: input.decision });
        await repo.updateRequest(tx, principal.organisationId, id, { state: answer.state });
        await repo.insertEvents(tx, [
          event(context, 'review', context.facts.round, {
            decision: input.decision,
            text: input.comment || null,
          }),
        ]);
        const told: ChangeRequestTransition | null =
          input.decision === 'reject'
            ? 'rejected'
            : input.decision === 'request-changes'
              ? 'changes-requested'
              : answer.state === 'approved' && context.facts.state !== 'approved'
                ? 'approved'
                : null;
        if (told) await tell(tx, context, after, told, { comment: input.comment || null });
        if (answer.applies) {
          const reviewed = await load(tx, principal.organisationId, {
            ...context.found,
            request: { ...context.found.request, state: answer.state },
          });
          await applyNow(tx, { ...reviewed, found: context.found, principal }, after);
        }
      });
    },

    /** POST …/{id}/comments. Anyone who may read the request may comment, whatever its state. */
    comment(principal: Principal, projectKey: string, id: string, text: string) {
      return act(principal, projectKey, id, async (tx, context) => {
        await repo.updateRequest(tx, principal.organisationId, id, {});
        await repo.insertEvents(tx, [event(context, 'comment', context.facts.round, { text })]);
      });
    },

    /** What schedules ask of change requests (modules/schedules): one applied when it falls due. */
    forSchedules: {
      /** The request's state and title, when it is one of the project's. */
      async find(executor: Executor, principal: Principal, projectKey: string, id: string) {
        const found = await locate(executor, principal, projectKey, id, false);
        return {
          state: found.request.state,
          title: found.request.title,
          environmentId: found.environment.id,
          authorId: found.request.authorId,
          mayApprove: actorOf(principal, found).mayApprove,
        };
      },
      /**
       * Applies the request in the scheduler's transaction `tx`, by the schedule's author, as an
       * `apply` would (refused unless approved; suspended on a conflict); its state after, and what
       * to announce once `tx` commits.
       */
      async applyWithin(tx: Executor, principal: Principal, projectKey: string, id: string) {
        const after: AfterCommit = [];
        const found = await locate(tx, principal, projectKey, id, true);
        const loaded = await load(tx, principal.organisationId, found);
        await applyNow(tx, { ...loaded, found, principal }, after);
        const now = await locate(tx, principal, projectKey, id, false);
        return { state: now.request.state, reason: now.request.suspendedReason, after };
      },
    },

    /** POST …/{id}/apply: every change written in one transaction, or the request suspended. */
    apply(principal: Principal, projectKey: string, id: string) {
      return act(principal, projectKey, id, (tx, context, after) => applyNow(tx, context, after));
    },

    /** POST …/{id}/cancel. */
    cancel(principal: Principal, projectKey: string, id: string) {
      return act(principal, projectKey, id, async (tx, context, after) => {
        const answer = decide(context, { type: 'cancel' });
        await repo.updateRequest(tx, principal.organisationId, id, { state: answer.state });
        await repo.insertEvents(tx, [event(context, 'cancelled', answer.round)]);
        await tell(tx, context, after, 'cancelled');
      });
    },
  };
}
