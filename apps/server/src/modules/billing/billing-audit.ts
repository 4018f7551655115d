/**
 * What the audit log says about the organisation's subscription: each kind of billing entry (core's
 * `BillingAuditEntry`) rendered to its title, markdown description and data, in one place. Plan
 * names are escaped; the billing contact itself is never written.
 */
import { escapeMarkdown } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS } from '@vexil/core/audit-entries';
import type { AuditPlan, BillingAuditEntry } from '@vexil/core/audit-entries-organisation';
import type { AuditEntry } from '../audit/audit.service';
import type { SubscriptionRecord } from '../subscriptions/subscriptions.types';

/** The provider as the audit log names it. */
const PROVIDER_NAMES: Record<
  (BillingAuditEntry & { kind: 'billing.provider_reported' })['provider'],
  string
> = {
  local: 'the billing service',
  stripe: 'Stripe',
};

/** A stored subscription's plan as billing's entries describe it. */
export function auditPlan(row: Pick<SubscriptionRecord, 'productName' | 'interval' | 'quantity'>): AuditPlan {
  return { productName: row.productName, interval: row.interval, seats: row.quantity };
}

/** The plan as the audit log describes it: `**Team** (monthly, 3 seat(s))`, or `no plan`. */
function describePlan(plan: AuditPlan): string {
  const name = plan.productName ? `**${escapeMarkdown(plan.productName)}**` : 'no plan';
  const interval = plan.interval === 'year' ? 'yearly' : plan.interval === 'month' ? 'monthly' : null;
  return `${name}${interval ? ` (${interval}, ${plan.seats} seat(s))` : ''}`;
}

function text(entry: BillingAuditEntry): Pick<AuditEntry, 'title' | 'description' | 'data'> {
  switch (entry.kind) {
    case 'billing.plan_chosen': {
      const { before } = entry;
      return {
        title: `Subscription changed to ${entry.plan.productName ?? 'a plan'}`,
        description: `${escapeMarkdown(entry.by)} subscribed to ${describePlan(entry.plan)}${before ? `; it was ${describePlan(before)}, ${before.inTrial ? 'in trial' : before.status}` : ''}.`,
        data: { priceId: entry.requested.priceId, seats: entry.requested.seats },
      };
    }
    case 'billing.contact_updated':
      return {
        title: 'Billing details updated',
        description: `${escapeMarkdown(entry.by)} updated the billing contact.`,
      };
    case 'billing.plan_set':
      return {
        title: `Plan set to ${entry.plan.productName ?? 'a plan'} by an instance administrator`,
        description: `An instance administrator put the organisation on ${describePlan(entry.plan)}, ${entry.inTrial ? `in trial for ${entry.trialDaysLeft} day(s)` : entry.status}.`,
        data: { plan: entry.requestedPlan, status: entry.storedStatus, trialEnd: entry.trialEnd },
      };
    case 'billing.provider_reported': {
      const provider = PROVIDER_NAMES[entry.provider];
      const { before } = entry;
      return {
        title: `Subscription updated by ${provider}`,
        description: `${provider} reported the subscription ${describePlan(entry.plan)} as ${entry.status}${before ? `; it was ${describePlan(before)}, ${before.status}` : ''}.`,
        data: { eventId: entry.event.id, eventType: entry.event.type, status: entry.status },
      };
    }
  }
}

/** The audit entry of a change to the subscription. */
export function billingAudit(entry: BillingAuditEntry): AuditEntry {
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'subscription',
    ...(entry.kind === 'billing.contact_updated' ? {} : { resourceId: entry.subscriptionId }),
    ...text(entry),
  };
}
