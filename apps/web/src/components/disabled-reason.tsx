import type { ReactNode } from 'react';
import { Tooltip } from '@mantine/core';

/**
 * Wraps a control that may be disabled: when `denial` is set, hovering or focusing it says why (a
 * disabled button gets no pointer or focus events of its own, so the wrapper takes them).
 */
export function DisabledReason({ denial, children }: { denial: string | null; children: ReactNode }) {
  if (denial === null) return children;
  return (
    // Focus too (Mantine's tooltip follows hover only by default): the reason must reach keyboard users.
    <Tooltip label={denial} withArrow multiline maw={280} events={{ hover: true, focus: true, touch: true }}>
      <span tabIndex={0} aria-label={denial} style={{ display: 'inline-block' }}>
        {children}
      </span>
    </Tooltip>
  );
}
