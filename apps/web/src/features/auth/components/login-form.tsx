import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useFormFields } from '../../../lib/form-fields';
import { LOGIN_FAILED_MESSAGE, loginForm, type LoginForm as LoginValues } from '@vexil/core';
import { forgetOrganisation } from '../../../lib/remembered-organisation';
import { takeReturnPath } from '../../../lib/return-path';
import { useLogin } from '../api/login';

type LoginFormProps = {
  organisation: { name: string; domain: string };
  /** The organisation came from the address path, so the user can go back and pick another. */
  canChooseOrganisation: boolean;
};

/** docs/product.md §5 "Login" and §8 "Sign-in": e-mail, password and "Keep me signed in" for one organisation. */
export function LoginForm({ organisation, canChooseOrganisation }: LoginFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const login = useLogin();
  const [failure, setFailure] = useState<string | null>(null);
  const { text, checkbox, handleSubmit, setError, errors, isSubmitting } = useFormFields(loginForm, {
    email: '',
    password: '',
    rememberMe: false,
  });

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

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="login-title">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={1} fz={24} id="login-title">
            Sign in to {organisation.name}
          </Title>
          <Text size="sm" c="dimmed">
            Welcome back. Sign in with your e-mail address.
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
          type="email"
          autoComplete="username"
          placeholder="you@example.com"
          autoFocus
          error={errors.email}
          {...text('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          error={errors.password}
          {...text('password')}
        />
        <Group justify="space-between" gap="xs">
          <Checkbox label="Keep me signed in" {...checkbox('rememberMe')} />
          <Anchor component={Link} to={`/${organisation.domain}/forgot-password`} size="sm">
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={isSubmitting} mt="xs">
          Sign in
        </Button>
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
