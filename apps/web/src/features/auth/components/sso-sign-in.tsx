import { useState, type ReactNode } from 'react';
import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { SSO_FAILURE_MESSAGES, type PublicSso, type SsoFailureReason } from '@vexil/core';
import { ssoStartUrl } from '../api/sso-start';
import { FailureAlert } from './failure-alert';

/*
 * The single sign-on part of the sign-in form (docs/product.md §2 "Sign-in form"). A module of its own,
 * loaded only for an organisation with single sign-on or a single sign-on that came back failed: the
 * sign-in page is part of every visit's first download (docs/architecture.md "The dashboard").
 */

export const PASSWORD_SIGN_IN_TOGGLE = 'Sign in with a password (organisation admins)';

/** The reason a single sign-on attempt came back with (`?sso={reason}`), when it is one core knows. */
function failureOf(reason: string | null): SsoFailureReason | null {
  return reason !== null && Object.hasOwn(SSO_FAILURE_MESSAGES, reason) ? (reason as SsoFailureReason) : null;
}

/** A line across the form, with a word in its middle. */
function Separator({ label }: { label?: string }) {
  const line = <Box flex={1} h={1} bg="var(--mantine-color-default-border)" />;
  return (
    <Group gap="sm" wrap="nowrap" role="separator" aria-label={label}>
      {line}
      {label ? (
        <>
          <Text size="xs" c="dimmed" aria-hidden="true">
            {label}
          </Text>
          {line}
        </>
      ) : null}
    </Group>
  );
}

export type SsoSignInProps = {
  /** The form's heading. */
  title: ReactNode;
  domain: string;
  sso: PublicSso | null;
  /** `?sso={reason}`: why the last single sign-on attempt came back to the sign-in page. */
  reason: string | null;
  /** Whether a password sign-in failed (its own message then replaces the single sign-on's). */
  passwordFailed: boolean;
  /** The "Keep me signed in" checkbox, which applies to both ways of signing in, and its value. */
  keepSignedIn: ReactNode;
  rememberMe: boolean;
  /** The e-mail and password form. */
  passwordForm: ReactNode;
};

/**
 * "Sign in with {name}" (a link to the server's single sign-on start, keeping "Keep me signed in"),
 * then, after "or", the password form; when single sign-on is required, the password form stays for
 * organisation admins, folded behind a button. A failed single sign-on says why above it all.
 */
export function SsoSignIn({
  title,
  domain,
  sso,
  reason,
  passwordFailed,
  keepSignedIn,
  rememberMe,
  passwordForm,
}: SsoSignInProps) {
  const [passwordOpen, setPasswordOpen] = useState(false);
  const failure = failureOf(reason);
  const passwordShown = !sso?.required || passwordOpen;

  let subtitle = 'Welcome back. Sign in with your e-mail address.';
  if (sso) {
    subtitle = sso.required
      ? `Your organisation signs in with ${sso.displayName}.`
      : `Welcome back. Sign in with ${sso.displayName} or your e-mail address.`;
  }

  return (
    <>
      <Stack gap={4}>
        {title}
        <Text size="sm" c="dimmed">
          {subtitle}
        </Text>
      </Stack>
      {failure && !passwordFailed ? <FailureAlert>{SSO_FAILURE_MESSAGES[failure]}</FailureAlert> : null}
      {sso ? (
        <>
          <Button component="a" href={ssoStartUrl(domain, rememberMe)} fullWidth>
            Sign in with {sso.displayName}
          </Button>
          {keepSignedIn}
          {sso.required ? (
            <>
              <Separator />
              <Button
                variant="subtle"
                color="gray"
                fullWidth
                justify="flex-start"
                fw={500}
                px="xs"
                // The label wraps on a phone rather than being cut.
                h="auto"
                py={6}
                styles={{ label: { whiteSpace: 'normal', textAlign: 'left', lineHeight: 1.4 } }}
                aria-expanded={passwordShown}
                aria-controls={passwordShown ? 'password-sign-in' : undefined}
                leftSection={
                  <IconChevronRight
                    size={16}
                    aria-hidden="true"
                    style={{ transform: passwordShown ? 'rotate(90deg)' : undefined }}
                  />
                }
                onClick={() => setPasswordOpen(!passwordShown)}
              >
                {PASSWORD_SIGN_IN_TOGGLE}
              </Button>
            </>
          ) : (
            <Separator label="or" />
          )}
        </>
      ) : null}
      {passwordShown ? (
        <Stack gap="md" id="password-sign-in">
          {passwordForm}
        </Stack>
      ) : null}
    </>
  );
}
