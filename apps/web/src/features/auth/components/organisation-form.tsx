import { Alert, Anchor, Button, Divider, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { signupEmailForm } from '@vexil/core';
import { useFlag } from '../../../lib/flags';
import { useFormFields } from '../../../lib/form-fields';
import { loginPath } from '../../../lib/paths';

const organisationForm = z.object({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, "Please provide your organisation's domain.")
    .regex(/^[a-z0-9-]+$/, 'A domain has only letters, digits and hyphens.'),
});

/** What the sign-up wizard is handed by the bare sign-in page: the e-mail to send a pin to. */
export type SignupHandOver = { signupEmail: string };

/**
 * The address of an organisation's sign-in page: its own sub-domain when this page is served from
 * the base domain (`{domain}.{baseDomain}/login`), otherwise the path form `/{domain}/login`.
 */
export function organisationLoginAddress(
  domain: string,
  baseDomain: string | undefined,
  location: Pick<Location, 'protocol' | 'hostname' | 'port'>,
): { external: string } | { path: string } {
  if (baseDomain && location.hostname === baseDomain && baseDomain !== 'localhost') {
    const port = location.port ? `:${location.port}` : '';
    return { external: `${location.protocol}//${domain}.${baseDomain}${port}/login` };
  }
  return { path: loginPath(domain) };
}

/**
 * On the bare app address (docs/product.md §2 "/login"): which organisation to sign in to, and, with
 * the app-login flag, signing up by e-mail.
 */
export function OrganisationForm({
  unknownDomain,
  baseDomain,
}: {
  unknownDomain?: string | undefined;
  baseDomain?: string | undefined;
}) {
  const navigate = useNavigate();
  const appLogin = useFlag('app-login');
  const { text, handleSubmit, errors } = useFormFields(organisationForm, { domain: '' });
  const signup = useFormFields(signupEmailForm, { email: '' });

  const onSubmit = handleSubmit(async ({ domain }) => {
    const address = organisationLoginAddress(domain, baseDomain, window.location);
    if ('external' in address) window.location.assign(address.external);
    else await navigate(address.path);
  });

  const onSignup = signup.handleSubmit(async ({ email }) => {
    const handOver: SignupHandOver = { signupEmail: email };
    await navigate('/signup', { state: handOver });
  });

  return (
    <Stack gap="xl">
      <form onSubmit={onSubmit} noValidate aria-labelledby="organisation-title">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={1} fz={24} id="organisation-title">
              Sign in to Vexil
            </Title>
            <Text size="sm" c="dimmed">
              Enter your organisation&apos;s domain to continue.
            </Text>
          </Stack>
          {unknownDomain ? (
            <Alert
              color="orange"
              variant="light"
              icon={<IconAlertCircle size={18} aria-hidden="true" />}
              role="alert"
            >
              We could not find an organisation with the domain &ldquo;{unknownDomain}&rdquo;.
            </Alert>
          ) : null}
          <TextInput
            label="Organisation"
            description="The domain your organisation signed up with"
            placeholder="acme"
            autoComplete="organization"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            error={errors.domain}
            {...text('domain')}
          />
          <Button type="submit" fullWidth mt="xs">
            Continue
          </Button>
          <Text size="sm" c="dimmed" ta="center">
            Don&apos;t know your organisation&apos;s domain?{' '}
            <Anchor component={Link} to="/find-organisation" size="sm">
              Find your organisation
            </Anchor>
          </Text>
        </Stack>
      </form>
      {appLogin ? (
        <>
          <Divider label="New to Vexil?" labelPosition="center" />
          <form onSubmit={onSignup} noValidate aria-labelledby="signup-title">
            <Stack gap="md">
              <Stack gap={4}>
                <Title order={2} fz={18} id="signup-title">
                  Create an organisation
                </Title>
                <Text size="sm" c="dimmed">
                  Start with your work e-mail; we will send you a pin to confirm it.
                </Text>
              </Stack>
              <TextInput
                label="Work e-mail"
                type="email"
                autoComplete="email"
                placeholder="you@company.com"
                error={signup.errors.email}
                {...signup.text('email')}
              />
              <Button type="submit" variant="light" fullWidth>
                Sign up
              </Button>
            </Stack>
          </form>
        </>
      ) : null}
    </Stack>
  );
}
