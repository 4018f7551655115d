import { DAY_MS, type Subscription } from '@vexil/core';
import type { Database } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { AppError, NotFoundError } from '../../errors';
import { FREE_PLAN_ID, type BillingCatalogue } from '../../plans/catalogue';
import type { AuditService } from '../audit/audit.service';
import { planColumns } from '../subscriptions/plan-columns';
import { toSubscription } from '../subscriptions/subscription-state';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { BillingCatalogueSync } from './billing-catalogue';
import * as usageRepo from './billing-usage.repository';
import * as repo from './billing.repository';
import { auditPlan, billingAudit } from './billing-audit';

export type SetPlanInput = {
  /** The organisation's domain (sub-domain). */
  organisation: string;
  /** A catalogue product id (`local-team` or `team`), a synced provider product id, or `free`. */
  plan: string;
  /** Starts a trial of that many days (0 ends it now: inactive). */
  trialDays?: number;
  status?: 'active' | 'inactive';
  seats?: number;
};

export type BillingAdmin = ReturnType<typeof createBillingAdmin>;

/**
 * `npm run billing` (src/cli/billing.ts): what an instance administrator reads and sets of an
 * organisation's subscription, whatever the billing flag, audited as the system.
 */
export function createBillingAdmin(deps: {
  db: Database;
  audit: AuditService;
  subscriptions: SubscriptionsService;
  catalogue: BillingCatalogue;
  catalogueSync: BillingCatalogueSync;
  now: () => Date;
}) {
  const { db, audit, subscriptions, catalogue, catalogueSync, now } = deps;

  return {
    /**
     * `npm run billing -- set-plan`: an instance administrator puts an organisation on a plan, or
     * starts a trial of it (`trialDays`), or marks it inactive. Audited as the system.
     */
    async setPlan(input: SetPlanInput): Promise<{ organisation: string; subscription: Subscription }> {
      const organisation = await repo.organisationByDomain(db, input.organisation);
      if (!organisation) throw new NotFoundError('organisation', input.organisation);
      const choice = await catalogueSync.choiceOf(input.plan);
      if (!choice) {
        const known = [FREE_PLAN_ID, ...catalogue.plans.map((p) => p.id)].join(', ');
        throw new AppError(400, `There is no plan "${input.plan}" (plans: ${known}).`);
      }
      return db.transaction(async (tx) => {
        await lockOrganisation(tx, organisation.id);
        const before = await subscriptions.find(tx, organisation.id);
        const seats = input.seats ?? before?.quantity ?? (await usageRepo.countSeats(tx, organisation.id));
        const at = now();
        const trial = input.trialDays !== undefined;
        const after = await subscriptions.putOnPlan(tx, organisation.id, {
          ...planColumns(catalogue, choice, seats),
          status: input.status === 'inactive' ? 'inactive' : trial ? 'trialing' : 'active',
          trialEnd: trial ? new Date(at.getTime() + input.trialDays! * DAY_MS) : null,
          cancelAt: null,
        });
        const subscription = toSubscription(after, at);
        await audit.record(
          tx,
          { organisationId: organisation.id, userId: null },
          billingAudit({
            kind: 'billing.plan_set',
            subscriptionId: after.id,
            plan: auditPlan(after),
            requestedPlan: input.plan,
            status: subscription.status,
            storedStatus: after.status,
            inTrial: subscription.inTrial,
            trialDaysLeft: subscription.daysUntilEndOfTrial,
            trialEnd: after.trialEnd?.toISOString() ?? null,
          }),
        );
        return { organisation: organisation.domain, subscription };
      });
    },

    /** The subscription as stored, whatever the billing flag (for `npm run billing -- show`). */
    async subscriptionOf(
      domain: string,
    ): Promise<{ organisation: string; subscription: Subscription | null }> {
      const organisation = await repo.organisationByDomain(db, domain);
      if (!organisation) throw new NotFoundError('organisation', domain);
      const row = await subscriptions.find(db, organisation.id);
      return { organisation: organisation.domain, subscription: row ? toSubscription(row, now()) : null };
    },
  };
}
