import { formatCount } from './limits';
import type {
  Limits,
  PlanChangePreview,
  PlanCounts,
  PlanExcess,
  PlanLoss,
  Subscription,
} from './schemas/billing';

/** The counted limits a change of plan can leave the organisation over, with what each counts. */
const COUNTED: readonly {
  key: PlanExcess['key'];
  count: keyof PlanCounts;
  say: (used: number) => string;
}[] = [
  {
    key: 'maxOrganisationUsers',
    count: 'seats',
    say: (n) => `${formatCount(n)} ${n === 1 ? 'seat' : 'seats'} in use (members and pending invitations)`,
  },
  {
    key: 'maxProjects',
    count: 'projectsUsed',
    say: (n) => `${formatCount(n)} ${n === 1 ? 'project' : 'projects'}`,
  },
  {
    key: 'maxEnvironments',
    count: 'environmentsUsed',
    say: (n) => `${formatCount(n)} ${n === 1 ? 'environment' : 'environments'}`,
  },
  {
    key: 'maxFeatures',
    count: 'featuresUsed',
    say: (n) => `${formatCount(n)} ${n === 1 ? 'feature' : 'features'}`,
  },
];

/** The capabilities a plan may leave out, as the change's confirmation names them. */
const CAPABILITIES: readonly { key: 'auditLog' | 'variantTesting'; message: string }[] = [
  { key: 'auditLog', message: 'The audit log: it is no longer shown.' },
  { key: 'variantTesting', message: 'Experiments: they can no longer be created or changed.' },
];

/**
 * What moving to the plan `plan` (its `limits`) would mean for an organisation that uses `counts` on
 * its `current` subscription (null: none, so no limit applies now): each counted limit it already
 * passes there (nothing is removed, but nothing more can be added), and what it would lose: a
 * capability its current plan includes and the new one does not, and the rest of a trial (any change
 * of plan ends it).
 */
export function planChangePreview(input: {
  plan: string;
  limits: Limits;
  counts: PlanCounts;
  current: Pick<Subscription, 'limits' | 'inTrial' | 'daysUntilEndOfTrial'> | null;
}): Omit<PlanChangePreview, 'confirmsAtCheckout'> {
  const { plan, limits, counts, current } = input;
  const exceeded: PlanExcess[] = [];
  for (const { key, count, say } of COUNTED) {
    const limit = limits[key];
    const used = counts[count];
    if (limit !== null && used > limit)
      exceeded.push({ key, used, limit, message: `${say(used)}; ${plan} includes ${formatCount(limit)}.` });
  }
  const lost: PlanLoss[] = CAPABILITIES.filter(
    ({ key }) => (current === null || current.limits[key]) && !limits[key],
  ).map(({ key, message }) => ({ key, message }));
  if (current?.inTrial) {
    const days = Math.max(0, current.daysUntilEndOfTrial ?? 0);
    lost.push({
      key: 'trial',
      message: `The ${days === 1 ? 'day' : `${formatCount(days)} days`} left in your trial: the trial ends now.`,
    });
  }
  return { plan, exceeded, lost };
}
