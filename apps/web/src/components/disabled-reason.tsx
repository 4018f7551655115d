import type { ReactNode } from 'react';
import { Tooltip } from '@mantine/core';

/**
 * Wraps a control that may be disabled: when `denial` is set, hovering or focusing it says why (a
 * disabled button gets no pointer or focus events of its own, so the wrapper takes them).
 */
export function DisabledReason({ denial, children }: { denial: string | null; children: ReactNode }) {
  if (denial === null) return children;
  return (
    <Tooltip label={denial} withArrow multiline maw={280}>
      <span tabIndex={0} aria-label={denial} style={{ display: 'inline-block' }}>
        {children}
      </span>
    </Tooltip>
  );
}
