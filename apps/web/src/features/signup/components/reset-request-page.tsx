import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import {
  RESET_REQUEST_FAILED_MESSAGE,
  RESET_REQUEST_SENT_MESSAGE,
  resetPasswordInitInput,
  type ResetPasswordInitInput,
} from '@vexil/core';
import { PublicPage } from '../../../components/public-page';
import { isApiError } from '../../../lib/api-client';
import { useFormFields } from '../../../lib/form-fields';
import { useRequestPasswordReset } from '../api/reset-password';

/**
 * /{organisation}/forgot-password, from "Forgot password?" on the sign-in form: the reset request of
 * docs/product.md §4 (pending, then submitted). The answer is the same whether or not the address has
 * an account, so the page only says that an e-mail was sent.
 */
export function ResetRequestPage() {
  const { organisation } = useParams();
  const domain = organisation?.toLowerCase();
  const loginPath = domain ? `/${domain}/login` : '/login';
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { text, handleSubmit, setError, errors, isSubmitting } = useFormFields(resetPasswordInitInput, {
    email: '',
  });

  const onSubmit = handleSubmit(async (values: ResetPasswordInitInput) => {
    setFailure(null);
    try {
      await request.mutateAsync({ email: values.email, domain });
    } catch (error) {
      const fieldError = isApiError(error) ? error.errors.find((e) => e.field === 'email') : undefined;
      if (fieldError) setError('email', fieldError.message);
      // Too many requests says so; anything else reads the same for every address.
      setFailure(
        isApiError(error) && error.status === 429 && error.title ? error.title : RESET_REQUEST_FAILED_MESSAGE,
      );
      return;
    }
    setSentTo(values.email);
  });

  const back = (
    <Anchor component={Link} to={loginPath} size="sm">
      Back to sign in
    </Anchor>
  );

  if (sentTo) {
    return (
      <PublicPage footer={back}>
        <Stack gap="md" role="status">
          <Title order={1} fz={24}>
            Check your e-mail
          </Title>
          <Alert color="green" variant="light" icon={<IconMailCheck size={18} aria-hidden="true" />}>
            {RESET_REQUEST_SENT_MESSAGE}
          </Alert>
          <Text size="sm" c="dimmed">
            If {sentTo} has an account here, the e-mail holds a link to choose a new password. It works once,
            for one hour.
          </Text>
        </Stack>
      </PublicPage>
    );
  }

  return (
    <PublicPage footer={back}>
      <form onSubmit={onSubmit} noValidate aria-labelledby="reset-request-title">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={1} fz={24} id="reset-request-title">
              Reset your password
            </Title>
            <Text size="sm" c="dimmed">
              Enter the e-mail address you sign in with and we will send you a link to choose a new password.
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
          <Button type="submit" fullWidth loading={isSubmitting}>
            Send reset link
          </Button>
        </Stack>
      </form>
    </PublicPage>
  );
}
