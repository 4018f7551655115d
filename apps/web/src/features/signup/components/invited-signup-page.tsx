import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconArmchair2, IconUserCheck, IconUserQuestion } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  INVITEE_ALREADY_ACTIVATED_MESSAGE,
  INVITEE_NOT_FOUND_MESSAGE,
  INVITEE_NO_SEAT_MESSAGE,
  inviteeNoSeatDetail,
  inviteeSignupForm,
  type Invitee,
  type InviteeSignupForm,
} from '@vexil/core';
import { LoadingPage } from '../../../components/loading-page';
import { PublicPage } from '../../../components/public-page';
import { isApiError } from '../../../lib/api-client';
import { useFormFields } from '../../../lib/form-fields';
import { useAcceptInvitation, useInvitee } from '../api/invitee';
import { NewPasswordFields, passwordsReady } from './new-password-fields';

/**
 * /invited/{activationKey} (docs/product.md §2, §4 "Invited signup"): loading, not found, already
 * activated, no seat left on the organisation's plan, or the form; accepting signs the new member in
 * and goes home.
 */
export function InvitedSignupPage() {
  const { activationKey = '' } = useParams();
  const invitee = useInvitee(activationKey);
  const [outcome, setOutcome] = useState<Gone | null>(null);

  if (invitee.isPending) return <LoadingPage />;
  if (
    outcome === 'not-found' ||
    (invitee.isError && isApiError(invitee.error) && invitee.error.status === 404)
  )
    return <NotFound />;
  if (invitee.isError) {
    return (
      <PublicPage>
        <Stack gap="md">
          <Alert color="red" variant="light" title="The invitation could not be loaded" role="alert">
            <Text size="sm">{invitee.error.message}</Text>
          </Alert>
          <Button onClick={() => void invitee.refetch()} loading={invitee.isFetching}>
            Try again
          </Button>
        </Stack>
      </PublicPage>
    );
  }
  if (outcome === 'activated' || invitee.data.alreadyActivated)
    return <AlreadyActivated domain={invitee.data.organisationDomain} />;
  if (outcome === 'no-seat' || !invitee.data.seatAvailable)
    return <NoSeat organisationName={invitee.data.organisationName} />;
  return (
    <InviteeForm activationKey={activationKey} invitee={invitee.data} onGone={(why) => setOutcome(why)} />
  );
}

/** Why the form gave way to another page. */
type Gone = 'not-found' | 'activated' | 'no-seat';

function NotFound() {
  return (
    <PublicPage>
      <Stack gap="md" align="center" ta="center">
        <IconUserQuestion size={40} stroke={1.5} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Title order={1} fz={24}>
          {INVITEE_NOT_FOUND_MESSAGE}
        </Title>
        <Text size="sm" c="dimmed">
          This invitation link is not valid: it may have expired, been cancelled or been replaced by a newer
          one. Ask your organisation’s admin to invite you again.
        </Text>
        <Anchor component={Link} to="/login" size="sm">
          Go to sign in
        </Anchor>
      </Stack>
    </PublicPage>
  );
}

/** Activated already: "Sign in" opens the organisation's own sign-in page. */
function AlreadyActivated(props: { domain: string }) {
  return (
    <PublicPage>
      <Stack gap="md" align="center" ta="center">
        <IconUserCheck size={40} stroke={1.5} aria-hidden="true" color="var(--mantine-color-green-6)" />
        <Title order={1} fz={24}>
          {INVITEE_ALREADY_ACTIVATED_MESSAGE}
        </Title>
        <Text size="sm" c="dimmed">
          Sign in with the e-mail address and password you chose.
        </Text>
        <Button component={Link} to={`/${encodeURIComponent(props.domain)}/login`}>
          Sign in
        </Button>
      </Stack>
    </PublicPage>
  );
}

/** The organisation's plan has no seat left: the link keeps working once an admin makes room. */
function NoSeat(props: { organisationName: string }) {
  return (
    <PublicPage>
      <Stack gap="md" align="center" ta="center">
        <IconArmchair2 size={40} stroke={1.5} aria-hidden="true" color="var(--mantine-color-orange-6)" />
        <Title order={1} fz={24}>
          {INVITEE_NO_SEAT_MESSAGE}
        </Title>
        <Text size="sm" c="dimmed">
          {inviteeNoSeatDetail(props.organisationName)}
        </Text>
      </Stack>
    </PublicPage>
  );
}

function InviteeForm(props: { activationKey: string; invitee: Invitee; onGone: (why: Gone) => void }) {
  const { activationKey, invitee, onGone } = props;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept = useAcceptInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const { text, handleSubmit, setError, errors, isSubmitting } = useFormFields(inviteeSignupForm, {
    firstName: invitee.firstName,
    lastName: invitee.lastName,
    password: '',
    confirmPassword: '',
  });
  const password = text('password');
  const confirmPassword = text('confirmPassword');

  const onSubmit = handleSubmit(async (values: InviteeSignupForm) => {
    setFailure(null);
    try {
      await accept.mutateAsync({
        activationKey,
        firstName: values.firstName,
        lastName: values.lastName,
        password: values.password,
      });
    } catch (error) {
      if (isApiError(error) && error.status === 404) return onGone('not-found');
      if (isApiError(error) && error.status === 409) return onGone('activated');
      if (isApiError(error) && error.code === 'limit_reached') return onGone('no-seat');
      if (isApiError(error)) {
        for (const { field, message } of error.errors) {
          if (field === 'firstName' || field === 'lastName' || field === 'password') setError(field, message);
        }
      }
      setFailure(
        (isApiError(error) && error.title) || 'Your account could not be activated. Please try again.',
      );
      return;
    }
    // A new session: nothing cached for the signed-out visitor applies any more.
    queryClient.clear();
    await navigate('/', { replace: true });
  });

  return (
    <PublicPage>
      <form onSubmit={onSubmit} noValidate aria-labelledby="invitee-title">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={1} fz={24} id="invitee-title">
              Join {invitee.organisationName}
            </Title>
            <Text size="sm" c="dimmed">
              You were invited to {invitee.organisationName} on Vexil. Tell us your name and choose a
              password.
            </Text>
          </Stack>
          {failure ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={18} aria-hidden="true" />}
              role="alert"
            >
              {failure}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            value={invitee.email}
            readOnly
            description="The address you were invited at."
          />
          <Group grow align="flex-start" gap="sm">
            <TextInput
              label="First name"
              autoComplete="given-name"
              autoFocus
              error={errors.firstName}
              {...text('firstName')}
            />
            <TextInput
              label="Last name"
              autoComplete="family-name"
              error={errors.lastName}
              {...text('lastName')}
            />
          </Group>
          <NewPasswordFields
            label="Password"
            password={password}
            confirmPassword={confirmPassword}
            errors={errors}
          />
          <Button
            type="submit"
            fullWidth
            loading={isSubmitting}
            disabled={!passwordsReady({ password: password.value, confirmPassword: confirmPassword.value })}
          >
            Activate my account
          </Button>
        </Stack>
      </form>
    </PublicPage>
  );
}
