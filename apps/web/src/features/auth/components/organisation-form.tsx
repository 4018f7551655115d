import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
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

/** On the bare app address: which organisation to sign in to. Goes to /{domain}/login. */
export function OrganisationForm({ unknownDomain }: { unknownDomain?: string | undefined }) {
  const navigate = useNavigate();
  const { text, handleSubmit, errors } = useFormFields(organisationForm, { domain: '' });

  const onSubmit = handleSubmit(async ({ domain }) => {
    await navigate(loginPath(domain));
  });

  return (
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
        <Text size="sm" c="dimmed" ta="center">
          New to Vexil?{' '}
          <Anchor component={Link} to="/signup" size="sm">
            Create an organisation
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
