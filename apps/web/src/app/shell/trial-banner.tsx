import { IconClockHour4 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../../lib/session';
import classes from './shell.module.css';

/** docs/product.md §2/§4: while the subscription is in trial, how many days are left, linking to billing. */
export function TrialBanner() {
  const { subscription } = useSession();
  if (!subscription?.inTrial) return null;
  const days = Math.max(0, subscription.daysUntilEndOfTrial ?? 0);
  return (
    <div className={classes.trialBanner}>
      <IconClockHour4 size={16} aria-hidden="true" />
      <Link to="/admin/billing" className={classes.trialLink}>
        {days === 1 ? '1 day left in your trial' : `${days} days left in your trial`}
      </Link>
    </div>
  );
}
