import { lazy, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useFormFields } from '../../../lib/form-fields';
import { LOGIN_FAILED_MESSAGE, loginForm, type LoginForm as LoginValues, type PublicSso } from '@vexil/core';
import { forgetOrganisation } from '../../../lib/remembered-organisation';
import { takeReturnPath } from '../../../lib/return-path';
import { useLogin } from '../api/login';
import { FailureAlert } from './failure-alert';

// Only organisations with single sign-on need it; the page's Suspense shows Loading meanwhile.
const SsoSignIn = lazy(() => import('./sso-sign-in').then((module) => ({ default: module.SsoSignIn })));

type LoginFormProps = {
  organisation: { name: string; domain: string };
  /** The organisation came from the address path, so the user can go back and pick another. */
  canChooseOrganisation: boolean;
  /** The organisation's single sign-on, if it has one. */
  sso?: PublicSso | null;
  /** `?sso={reason}`: a single sign-on attempt came back failed. */
  ssoFailure?: string | null;
};

/**
 * docs/product.md §5 "Login" and §8 "Sign-in": e-mail, password and "Keep me signed in" for one
 * organisation. With single sign-on, "Sign in with {name}" comes first (sso-sign-in.tsx).
 */
export function LoginForm({
  organisation,
  canChooseOrganisation,
  sso = null,
  ssoFailure = null,
}: LoginFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const { text, checkbox, handleSubmit, setError, errors, isSubmitting } = useFormFields(loginForm, {
    email: '',
    password: '',
    rememberMe: false,
  });
  const rememberMe = checkbox('rememberMe');

  const onSubmit = handleSubmit(async (values: LoginValues) => {
    setFailure(null);
    try {
      await login.mutateAsync({ ...values, domain: organisation.domain });
    } catch (error) {
      if (isApiError(error)) {
        for (const { field, message } of error.errors) {
          if (field === 'username' || field === 'email') setError('email', message);
          if (field === 'password') setError('password', message);
        }
      }
      setFailure((isApiError(error) && error.title) || LOGIN_FAILED_MESSAGE);
      return;
    }
    // A new session: nothing cached for the signed-out visitor applies any more.
    queryClient.clear();
    await navigate(takeReturnPath() ?? '/', { replace: true });
  });

  const title = (
    <Title order={1} fz={24} id="login-title">
      Sign in to {organisation.name}
    </Title>
  );
  const keepSignedIn = <Checkbox label="Keep me signed in" {...rememberMe} />;
  const forgotPassword = (
    <Anchor component={Link} to={`/${organisation.domain}/forgot-password`} size="sm">
      Forgot password?
    </Anchor>
  );
  // With single sign-on, "Keep me signed in" sits under its button and applies to both ways in.
  const passwordForm = (
    <>
      {failure ? <FailureAlert>{failure}</FailureAlert> : null}
      <TextInput
        label="Email"
        type="email"
        autoComplete="username"
        placeholder="you@example.com"
        // Where the page starts, unless single sign-on comes first; a folded form takes it as it opens.
        autoFocus={!sso || sso.required}
        error={errors.email}
        {...text('email')}
      />
      <PasswordInput
        label="Password"
        autoComplete="current-password"
        error={errors.password}
        {...text('password')}
      />
      <Group justify={sso ? 'flex-end' : 'space-between'} gap="xs">
        {sso ? null : keepSignedIn}
        {forgotPassword}
      </Group>
      <Button type="submit" fullWidth loading={isSubmitting} mt="xs" variant={sso ? 'default' : 'filled'}>
        Sign in
      </Button>
    </>
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="login-title">
      <Stack gap="md">
        {sso || ssoFailure !== null ? (
          <SsoSignIn
            title={title}
            domain={organisation.domain}
            sso={sso}
            reason={ssoFailure}
            passwordFailed={failure !== null}
            keepSignedIn={keepSignedIn}
            rememberMe={rememberMe.checked}
            passwordForm={passwordForm}
          />
        ) : (
          <>
            <Stack gap={4}>
              {title}
              <Text size="sm" c="dimmed">
                Welcome back. Sign in with your e-mail address.
              </Text>
            </Stack>
            {passwordForm}
          </>
        )}
        {canChooseOrganisation ? (
          <Text size="sm" c="dimmed" ta="center">
            Not {organisation.name}?{' '}
            <Anchor component={Link} to="/login" onClick={() => forgetOrganisation()} size="sm">
              Choose another organisation
            </Anchor>
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}
