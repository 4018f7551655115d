import {
  BILLING_ADMIN_ONLY,
  FREE_PRICE_ID,
  can,
  planChangePreview,
  type Limits,
  type PlanChangePreview,
  type PlanCounts,
  type SalesContact,
  type UiFlag,
} from '@vexil/core';
import { readTogether, type Database } from '../../db/client';
import { AppError, ForbiddenError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import { findCataloguePrice, type BillingCatalogue } from '../../plans/catalogue';
import { completeLimits } from '../subscriptions/subscription-state';
import * as catalogueRepo from './billing-catalogue.repository';
import * as usageRepo from './billing-usage.repository';
import { BILLING_TURNED_OFF } from './billing-words';
import type { BillingService } from './billing.service';

export type BillingPlanService = ReturnType<typeof createBillingPlanService>;

/**
 * What the dashboard needs to explain a plan before anyone runs into it (docs/product.md §2 "Plans",
 * §5 "Plan limits"): the counts the creation limits are checked against, for every member; and for
 * organisation admins, where "Contact us" leads and what a change of plan would mean.
 */
export function createBillingPlanService(deps: {
  db: Database;
  billing: BillingService;
  catalogue: BillingCatalogue;
  uiFlags: Record<UiFlag, boolean>;
  /** BILLING_SALES_CONTACT as a link, or null. */
  salesContact: string | null;
  /** BILLING_PROVIDER: only the local one confirms a change on a page of the dashboard. */
  provider: 'local' | 'stripe';
}) {
  const { db, billing, catalogue, uiFlags, salesContact, provider } = deps;

  function assertBilling(): void {
    if (!uiFlags.billing) throw new AppError(404, 'Not found', BILLING_TURNED_OFF);
  }

  function assertBillingAdmin(principal: Principal): void {
    assertBilling();
    if (!can(principal, 'manage', { type: 'organisation' })) throw new ForbiddenError(BILLING_ADMIN_ONLY);
  }

  async function countsOf(organisationId: string): Promise<PlanCounts> {
    const [seats, projectsUsed, environmentsUsed, featuresUsed] = await readTogether<
      [number, number, number, number]
    >(db, [
      () => usageRepo.countSeats(db, organisationId),
      () => usageRepo.countProjects(db, organisationId),
      () => usageRepo.countEnvironments(db, organisationId),
      () => usageRepo.countFeatures(db, organisationId),
    ]);
    return { seats, projectsUsed, environmentsUsed, featuresUsed };
  }

  /** The plan a price id names, as the change would apply it: Free, the catalogue's, or a synced one. */
  async function planOf(priceId: string): Promise<{ name: string; limits: Limits } | null> {
    if (priceId === FREE_PRICE_ID) return { name: catalogue.free.name, limits: catalogue.free.limits };
    const local = findCataloguePrice(catalogue, priceId);
    if (local) return { name: local.plan.name, limits: local.plan.limits };
    const synced = await catalogueRepo.findCataloguePrice(db, priceId);
    return synced ? { name: synced.productName, limits: completeLimits(synced.limits) } : null;
  }

  return {
    /**
     * GET /api/v1/billing/limits: every member may read the counts the creation limits compare with,
     * so that New Feature, New Project and the like say the plan stops them before the server does.
     */
    async counts(principal: Principal): Promise<PlanCounts> {
      assertBilling();
      return countsOf(principal.organisationId);
    },

    /** GET /api/v1/billing/sales-contact: where "Contact us" leads; null hides it (organisation admins). */
    salesContact(principal: Principal): SalesContact {
      assertBillingAdmin(principal);
      return { url: salesContact };
    },

    /**
     * GET /api/v1/billing/change-preview?price=: what moving to that price's plan would mean, for the
     * confirmation to say before the change (organisation admins); an unknown price is 404.
     */
    async changePreview(principal: Principal, priceId: string): Promise<PlanChangePreview> {
      assertBillingAdmin(principal);
      const plan = await planOf(priceId);
      if (!plan)
        throw new AppError(
          404,
          `There is no plan with the price "${priceId}".`,
          undefined,
          undefined,
          'not_found',
        );
      const [counts, current] = await Promise.all([
        countsOf(principal.organisationId),
        billing.subscriptionFor(db, principal.organisationId),
      ]);
      const preview = planChangePreview({ plan: plan.name, limits: plan.limits, counts, current });
      return { ...preview, confirmsAtCheckout: provider === 'local' };
    },
  };
}
