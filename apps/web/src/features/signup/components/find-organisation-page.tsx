import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconMailCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  FIND_ORGANISATION_FAILED_MESSAGE,
  FIND_ORGANISATION_SENT_MESSAGE,
  findOrganisationInput,
  type FindOrganisationInput,
} from '@vexil/core';
import { PublicPage } from '../../../components/public-page';
import { isApiError } from '../../../lib/api-client';
import { useFormFields } from '../../../lib/form-fields';
import { useFindOrganisations } from '../api/find-organisations';

/**
 * /find-organisation, from the bare /login page (docs/product.md §2): e-mails the sign-in address of
 * every organisation the address belongs to. The answer is the same whether or not it has any.
 */
export function FindOrganisationPage() {
  const find = useFindOrganisations();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { text, handleSubmit, setError, errors, isSubmitting } = useFormFields(findOrganisationInput, {
    email: '',
  });

  const onSubmit = handleSubmit(async (values: FindOrganisationInput) => {
    setFailure(null);
    try {
      await find.mutateAsync(values);
    } catch (error) {
      const fieldError = isApiError(error) ? error.errors.find((e) => e.field === 'email') : undefined;
      if (fieldError) setError('email', fieldError.message);
      setFailure((isApiError(error) && error.title) || FIND_ORGANISATION_FAILED_MESSAGE);
      return;
    }
    setSentTo(values.email);
  });

  const back = (
    <Anchor component={Link} to="/login" size="sm">
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
            {FIND_ORGANISATION_SENT_MESSAGE}
          </Alert>
          <Text size="sm" c="dimmed">
            We wrote to {sentTo}. Open the sign-in address of your organisation from that e-mail.
          </Text>
        </Stack>
      </PublicPage>
    );
  }

  return (
    <PublicPage footer={back}>
      <form onSubmit={onSubmit} noValidate aria-labelledby="find-organisation-title">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={1} fz={24} id="find-organisation-title">
              Find your organisation
            </Title>
            <Text size="sm" c="dimmed">
              Enter your e-mail address and we will send you the sign-in address of each organisation you
              belong to.
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
            autoComplete="email"
            placeholder="you@example.com"
            autoFocus
            error={errors.email}
            {...text('email')}
          />
          <Button type="submit" fullWidth loading={isSubmitting}>
            Send me my organisations
          </Button>
        </Stack>
      </form>
    </PublicPage>
  );
}
