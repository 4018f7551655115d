import {
  CHANGE_REQUEST_PAGE_SIZE,
  can,
  evaluate,
  rulesWithUtcDates,
  type ChangeRequest,
  type ChangeRequestListQuery,
  type ChangeRequestPage,
  type ControlSnapshot,
  type Preview,
  type PreviewInput,
  type WaitingCount,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { NotFoundError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { Scope } from '../scope/scope.service';
import { actorOf, factsOf, requestsOf, settingsOrDefault } from './change-request-facts';
import { detailOf, summaryOf } from './change-request-view';
import * as repo from './change-requests.repository';
import type { RequestInScope } from './change-requests.repository';
import type { ChangeKinds } from './change-kinds';
import type { ChangePlan } from './change-plan';

/** Most requests in review read at once to find those waiting for someone. */
const REVIEW_SCAN_LIMIT = 500;

/** A request read for a move: its changes, timeline, settings and the facts the rules read. */
export type LoadedRequest = Awaited<ReturnType<ReturnType<typeof createChangeRequestReads>['load']>>;

export type ChangeRequestReads = ReturnType<typeof createChangeRequestReads>;

/**
 * What is read of change requests: one request (found, loaded, shown), the lists, the count waiting
 * for a member, and the preview for a user.
 */
export function createChangeRequestReads(deps: { db: Database; scope: Scope; kinds: ChangeKinds }) {
  const { db, scope, kinds } = deps;

  async function locate(
    executor: Executor,
    principal: Principal,
    projectKey: string,
    id: string,
    forUpdate = false,
  ): Promise<RequestInScope> {
    const project = await scope.project(executor, principal.organisationId, projectKey);
    const found = await repo.findRequest(executor, principal.organisationId, project.id, id, { forUpdate });
    if (!found) throw new NotFoundError('change request', id);
    return found;
  }

  /** What the rules read of a request: its changes, timeline, settings and facts. */
  async function load(executor: Executor, organisationId: string, found: RequestInScope) {
    const [changes, events, stored] = [
      await repo.changesOf(executor, organisationId, [found.request.id]),
      await repo.eventsOf(executor, organisationId, [found.request.id]),
      await repo.settingsOf(executor, organisationId, found.environment.id),
    ];
    const settings = settingsOrDefault(stored);
    return { changes, events, settings, facts: factsOf(found, changes.length, events) };
  }

  async function get(principal: Principal, projectKey: string, id: string): Promise<ChangeRequest> {
    const found = await locate(db, principal, projectKey, id);
    const loaded = await load(db, principal.organisationId, found);
    const plans = new Map<string, ChangePlan | null>();
    for (const change of loaded.changes) {
      plans.set(change.id, await kinds.plan(db, principal.organisationId, change));
    }
    return detailOf(found, loaded.facts, loaded.settings, actorOf(principal, found), {
      changes: loaded.changes,
      plans,
      events: loaded.events,
    });
  }

  /** Requests in review that `principal` may approve and has not reviewed in their current round. */
  async function waitingFor(principal: Principal, projectId?: string) {
    const { rows } = await repo.listRequests(
      db,
      repo.listCondition({ organisationId: principal.organisationId, projectId, state: 'in-review' }),
      { offset: 0, limit: REVIEW_SCAN_LIMIT },
    );
    const ids = rows.map((row) => row.request.id);
    const [events, settings] = [
      await repo.eventsOf(db, principal.organisationId, ids),
      await repo.settingsOfMany(
        db,
        principal.organisationId,
        rows.map((row) => row.environment.id),
      ),
    ];
    return rows.filter((found) => {
      const own = settingsOrDefault(settings.get(found.environment.id) ?? null);
      if (!can(principal, 'approve', requestsOf(found))) return false;
      if (found.request.authorId === principal.userId && !own.allowSelfApproval) return false;
      return !events.some(
        (e) =>
          e.changeRequestId === found.request.id &&
          e.kind === 'review' &&
          e.actorId === principal.userId &&
          e.round === found.request.round,
      );
    });
  }

  return {
    locate,
    load,
    get,
    /** GET …/change-requests: filtered, most recently active first, a page at a time. */
    async list(
      principal: Principal,
      projectKey: string,
      query: ChangeRequestListQuery,
    ): Promise<ChangeRequestPage> {
      const project = await scope.project(db, principal.organisationId, projectKey);
      const environment = query.environmentKey
        ? await scope.environment(db, principal.organisationId, projectKey, query.environmentKey)
        : undefined;
      const offset = query.page * CHANGE_REQUEST_PAGE_SIZE;
      let rows: RequestInScope[];
      let total: number;
      if (query.reviewer === 'me') {
        const waiting = (await waitingFor(principal, project.id)).filter(
          (found) =>
            (!environment || found.environment.id === environment.id) &&
            (query.author !== 'me' || found.request.authorId === principal.userId) &&
            (!query.state || found.request.state === query.state),
        );
        total = waiting.length;
        rows = waiting.slice(offset, offset + CHANGE_REQUEST_PAGE_SIZE);
      } else {
        ({ rows, total } = await repo.listRequests(
          db,
          repo.listCondition({
            organisationId: principal.organisationId,
            projectId: project.id,
            state: query.state,
            environmentId: environment?.id,
            authorId: query.author === 'me' ? principal.userId : undefined,
          }),
          { offset, limit: CHANGE_REQUEST_PAGE_SIZE },
        ));
      }
      const ids = rows.map((row) => row.request.id);
      const [changes, events, settings] = [
        await repo.changesOf(db, principal.organisationId, ids),
        await repo.eventsOf(db, principal.organisationId, ids),
        await repo.settingsOfMany(
          db,
          principal.organisationId,
          rows.map((row) => row.environment.id),
        ),
      ];
      return {
        content: rows.map((found) =>
          summaryOf(
            found,
            factsOf(
              found,
              changes.filter((c) => c.changeRequestId === found.request.id).length,
              events.filter((e) => e.changeRequestId === found.request.id),
            ),
            settingsOrDefault(settings.get(found.environment.id) ?? null),
          ),
        ),
        totalElements: total,
        last: offset + rows.length >= total,
      };
    },

    /** GET /api/v1/change-requests/waiting: how many requests wait for the caller's review. */
    async waiting(principal: Principal): Promise<WaitingCount> {
      return { count: (await waitingFor(principal)).length };
    },

    /**
     * POST …/{id}/preview: for each feature the request changes, the variant `user` is served now
     * and would be served once it is applied (the merge with what is live), evaluated as SDKs do.
     */
    async preview(
      principal: Principal,
      projectKey: string,
      id: string,
      input: PreviewInput,
    ): Promise<Preview> {
      const found = await locate(db, principal, projectKey, id);
      const changes = await repo.changesOf(db, principal.organisationId, [found.request.id]);
      const at = new Date();
      const features: Preview['features'] = [];
      for (const change of changes) {
        // What a user is served changes only with a control (a settings change renames variants at most).
        const plan = await kinds.plan(db, principal.organisationId, change);
        const control = plan?.control;
        if (!plan || !control || !plan.featureKey) continue;
        const key = plan.featureKey;
        const served = (state: ControlSnapshot) => {
          const { variant } = evaluate(
            { key, salt: '1', ...state, rules: rulesWithUtcDates(state.rules) },
            input.user,
            at,
          );
          return { variantKey: variant, variantName: control.variantNames[variant] ?? variant };
        };
        features.push({
          featureKey: key,
          featureName: plan.resourceName,
          before: served(control.live),
          after: served(control.merged),
        });
      }
      return { features };
    },
  };
}
