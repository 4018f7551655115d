import type { Executor } from '../../db/client';
import type { Principal } from '../auth/auth.service';
import type { ChangeRow, RequestRow } from './change-requests.repository';
import type { ChangePlan } from './change-plan';
import type { ChangeKinds } from './change-kinds';

/** What applying a request finds: each change merged with what is live, and whether any conflicts. */
export type ApplyPlan = { plans: ChangePlan[]; conflict: boolean; reason: string | null };

/**
 * Applying a change request (docs/adr/0024-change-requests.md): every change's control locked and
 * merged with what is live; with a conflict nothing is written and the request is suspended with
 * the reason; otherwise every merged state is written in the request's transaction, all or nothing,
 * each as a version with source `change-request`.
 */
export function createChangeRequestApply(deps: { kinds: ChangeKinds }) {
  const { kinds } = deps;
  return {
    /** Locks and merges every change; names what conflicts and who changed it since. */
    async plan(tx: Executor, organisationId: string, changes: readonly ChangeRow[]): Promise<ApplyPlan> {
      const plans: ChangePlan[] = [];
      const reasons: string[] = [];
      for (const change of changes) {
        const plan = await kinds.plan(tx, organisationId, change, { forUpdate: true });
        if (!plan) {
          reasons.push('Something this request changes was archived or deleted.');
          continue;
        }
        plans.push(plan);
        if (plan.conflicts.length > 0) {
          const parts = plan.conflicts.map((conflict) => conflict.label).join(', ');
          const who = plan.liveAuthor ?? 'Someone';
          reasons.push(`${plan.resourceName}: ${parts} changed by ${who} since this request was drafted.`);
        }
      }
      return { plans, conflict: reasons.length > 0, reason: reasons.length > 0 ? reasons.join(' ') : null };
    },

    /** Writes every merged state that changes something; returns what to announce after the commit. */
    async write(
      tx: Executor,
      principal: Principal,
      request: RequestRow,
      plans: readonly ChangePlan[],
    ): Promise<(() => void)[]> {
      const after: (() => void)[] = [];
      for (const plan of plans) {
        if (plan.same(plan.live, plan.merged)) continue;
        after.push(await plan.write(tx, principal, request));
      }
      return after;
    },
  };
}
