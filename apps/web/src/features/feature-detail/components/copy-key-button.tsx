import { ActionIcon, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import {
  COPIED_MESSAGE,
  COPY_TOOLTIP_CLOSE_DELAY_MS,
  COPY_TOOLTIP_OPEN_DELAY_MS,
} from '../../../components/copy-tooltip';

/** Copies `value`; the tooltip confirms with "Copied to clipboard" (docs/product.md §8, §9 delays). */
export function CopyKeyButton({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip
          label={copied ? COPIED_MESSAGE : label}
          opened={copied || undefined}
          openDelay={COPY_TOOLTIP_OPEN_DELAY_MS}
          closeDelay={COPY_TOOLTIP_CLOSE_DELAY_MS}
          withArrow
        >
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            size="sm"
            onClick={copy}
            aria-label={copied ? COPIED_MESSAGE : label}
          >
            {copied ? <IconCheck size={14} aria-hidden="true" /> : <IconCopy size={14} aria-hidden="true" />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}
