import { ActionIcon, CopyButton, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import {
  COPIED_MESSAGE,
  COPY_TOOLTIP_CLOSE_DELAY_MS,
  COPY_TOOLTIP_OPEN_DELAY_MS,
} from '../../../components/copy-tooltip';

/* The redirect URI of the single sign-on form (sso-form.tsx), which the admin registers at the identity provider. */

/** The redirect URI, read-only, with a copy button. */
export function RedirectUri({ value }: { value: string }) {
  return (
    <TextInput
      label="Redirect URI"
      description="Register this address at your identity provider as the application’s redirect (callback) URI."
      value={value}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      rightSection={
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip
              label={copied ? COPIED_MESSAGE : 'Copy redirect URI'}
              opened={copied || undefined}
              openDelay={COPY_TOOLTIP_OPEN_DELAY_MS}
              closeDelay={COPY_TOOLTIP_CLOSE_DELAY_MS}
              withArrow
              position="left"
            >
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={copied ? COPIED_MESSAGE : 'Copy redirect URI'}
              >
                {copied ? (
                  <IconCheck size={16} aria-hidden="true" />
                ) : (
                  <IconCopy size={16} aria-hidden="true" />
                )}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}
