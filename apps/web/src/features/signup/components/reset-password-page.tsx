import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { RESET_FINISH_FAILED_MESSAGE, passwordForm, type PasswordForm } from '@vexil/core';
import { PublicPage } from '../../../components/public-page';
import { isApiError } from '../../../lib/api-client';
import { useFormFields } from '../../../lib/form-fields';
import { useFinishPasswordReset } from '../api/reset-password';
import { NewPasswordFields, passwordsReady } from './new-password-fields';

/**
 * /resetpassword?key=: the link of a reset e-mail (docs/product.md §2); without a key it goes to
 * /login. Setting the password signs the member out everywhere, so the page then offers to sign in.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const key = params.get('key');
  if (!key) return <Navigate to="/login" replace />;
  return <ResetPasswordForm resetKey={key} />;
}

function ResetPasswordForm({ resetKey }: { resetKey: string }) {
  const finish = useFinishPasswordReset();
  const [failure, setFailure] = useState<{ title: string; detail?: string | undefined } | null>(null);
  const [domain, setDomain] = useState<string | null>(null);
  const { text, handleSubmit, setError, errors, isSubmitting } = useFormFields(passwordForm, {
    password: '',
    confirmPassword: '',
  });
  const password = text('password');
  const confirmPassword = text('confirmPassword');

  const onSubmit = handleSubmit(async (values: PasswordForm) => {
    setFailure(null);
    try {
      const done = await finish.mutateAsync({ key: resetKey, password: values.password });
      setDomain(done.domain);
    } catch (error) {
      const fieldError = isApiError(error) ? error.errors.find((e) => e.field === 'password') : undefined;
      if (fieldError) setError('password', fieldError.message);
      setFailure({
        title: (isApiError(error) && error.title) || RESET_FINISH_FAILED_MESSAGE,
        detail: isApiError(error) ? error.detail : undefined,
      });
    }
  });

  if (domain !== null) {
    return (
      <PublicPage>
        <Stack gap="md" role="status">
          <Title order={1} fz={24}>
            Password changed
          </Title>
          <Alert color="green" variant="light" icon={<IconCircleCheck size={18} aria-hidden="true" />}>
            Your password has been reset. You were signed out everywhere: sign in with your new password.
          </Alert>
          <Button component={Link} to={domain ? `/${domain}/login` : '/login'} fullWidth>
            Sign in
          </Button>
        </Stack>
      </PublicPage>
    );
  }

  return (
    <PublicPage
      footer={
        <Anchor component={Link} to="/login" size="sm">
          Back to sign in
        </Anchor>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-labelledby="reset-password-title">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={1} fz={24} id="reset-password-title">
              Choose a new password
            </Title>
            <Text size="sm" c="dimmed">
              Setting it signs you out of every browser and device.
            </Text>
          </Stack>
          {failure ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={18} aria-hidden="true" />}
              role="alert"
            >
              <Text size="sm" fw={600}>
                {failure.title}
              </Text>
              {failure.detail ? <Text size="sm">{failure.detail}</Text> : null}
            </Alert>
          ) : null}
          <NewPasswordFields
            password={password}
            confirmPassword={confirmPassword}
            errors={errors}
            autoFocus
          />
          <Button
            type="submit"
            fullWidth
            loading={isSubmitting}
            disabled={!passwordsReady({ password: password.value, confirmPassword: confirmPassword.value })}
          >
            Reset password
          </Button>
        </Stack>
      </form>
    </PublicPage>
  );
}
