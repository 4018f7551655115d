import { Button, CopyButton, Group, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { COPIED_MESSAGE } from './copy-tooltip';
import classes from './code-block.module.css';

/**
 * Code to copy, such as an SDK example: a title bar with a Copy button over the code, which scrolls
 * sideways inside itself (focusable, so the keyboard can scroll it too) and is copied whole.
 */
export function CodeBlock({ title, code, label = title }: { title: string; code: string; label?: string }) {
  return (
    <div className={classes.block}>
      <Group justify="space-between" gap="xs" className={classes.bar} wrap="nowrap">
        <Text size="xs" fw={600} c="dimmed" truncate>
          {title}
        </Text>
        <CopyButton value={code} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              size="compact-xs"
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              leftSection={
                copied ? (
                  <IconCheck size={14} aria-hidden="true" />
                ) : (
                  <IconCopy size={14} aria-hidden="true" />
                )
              }
              aria-label={copied ? COPIED_MESSAGE : `Copy ${label}`}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <pre className={classes.code} tabIndex={0} role="region" aria-label={label}>
        <code>{code}</code>
      </pre>
    </div>
  );
}
