import type { ReactNode } from 'react';
import { NotFound } from '../components/not-found';
import { FlagGate } from '../lib/flags';
import type { UiFlag } from '@vexil/core';

/** A route that exists only while its UI flag is on; otherwise it is not found. */
export function RequireFlag({ flag, children }: { flag: UiFlag; children: ReactNode }) {
  return (
    <FlagGate flag={flag} fallback={<NotFound />}>
      {children}
    </FlagGate>
  );
}
