import { IconClockHour4 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isOrganisationAdmin } from '@vexil/core';
import { useSession } from '../../lib/session';
import classes from './shell.module.css';

/** What the trial banner adds for members, who may not open the Billing tab. */
export const TRIAL_ASK_AN_ADMIN = 'Ask an organisation admin to choose a plan.';

/**
 * docs/product.md §2/§4: while the subscription is in trial, how many days are left. Organisation
 * admins follow it to Admin › Billing; everyone else, who may not use that page, is told whom to ask.
 */
export function TrialBanner() {
  const { subscription, principalUser } = useSession();
  if (!subscription?.inTrial) return null;
  const days = Math.max(0, subscription.daysUntilEndOfTrial ?? 0);
  const left = days === 1 ? '1 day left in your trial' : `${days} days left in your trial`;
  return (
    <div className={classes.trialBanner}>
      <IconClockHour4 size={16} aria-hidden="true" style={{ flexShrink: 0 }} />
      {isOrganisationAdmin(principalUser) ? (
        <Link to="/admin/billing" className={classes.trialLink}>
          {left}
        </Link>
      ) : (
        <span>
          {left}. {TRIAL_ASK_AN_ADMIN}
        </span>
      )}
    </div>
  );
}
