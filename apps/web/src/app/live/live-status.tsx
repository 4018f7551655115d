import { useEffect, useState } from 'react';
import { Badge, Tooltip } from '@mantine/core';
import { useLiveStatus } from '../../lib/live';

/** How long a drop may last before the top bar says so: a quick reconnect is nobody's business. */
const GRACE_MS = 5_000;

/**
 * A discreet "Offline" in the top bar while the live connection is down for more than a few
 * seconds: the screens then show what they loaded, and others' changes appear once it is back.
 */
export function LiveStatusBadge() {
  const status = useLiveStatus();
  const [late, setLate] = useState(false);
  useEffect(() => {
    const down = status !== 'CONNECTED';
    const timer = setTimeout(() => setLate(down), down ? GRACE_MS : 0);
    return () => clearTimeout(timer);
  }, [status]);
  if (status === 'CONNECTED' || !late) return null;
  return (
    <Tooltip label="Live updates are paused: reconnecting. Changes made meanwhile appear once it is back.">
      <Badge color="gray" variant="light" size="sm" role="status" aria-live="polite">
        Offline
      </Badge>
    </Tooltip>
  );
}
