import { useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { applyFieldErrors, FormFailure, fieldOnlyFailure } from '../../../components/form-failure';
import { z } from 'zod';
import { MAX_LENGTH, jiraConnectionInput, type JiraConnection, type JiraConnectionInput } from '@vexil/core';

export const API_TOKEN_STORED_HINT = 'A token is stored; leave empty to keep it.';
export const API_TOKEN_HELP_URL = 'https://id.atlassian.com/manage-profile/security/api-tokens';

/** The form: an empty API token field is allowed here, and means "keep the stored one". */
const jiraConnectionForm = jiraConnectionInput.extend({ apiToken: z.string().max(MAX_LENGTH.token) });
type FormValues = z.input<typeof jiraConnectionForm>;
type FormOutput = z.output<typeof jiraConnectionForm>;
const FIELDS = ['baseUrl', 'email', 'apiToken'] as const;

export type JiraConnectionFormProps = {
  /** The stored connection; absent when connecting. */
  connection?: JiraConnection;
  submitLabel: string;
  /** Saves; rejects with the server's answer, which the form shows in place. */
  onSave: (input: JiraConnectionInput) => Promise<void>;
  /** Beside the submit button: Cancel, Remove. */
  actions?: ReactNode;
  /** A refusal the page says itself (the connect link's token): the form does not say it again. */
  saidByPage?: (error: unknown) => boolean;
};

/**
 * The Jira site's address and the account Vexil reads issues with: an e-mail and an API token. The token
 * is write-only: a stored one is never shown, and an empty field keeps it. A refused save keeps what was
 * typed and says why, once: under the field the refusal names, else above the form.
 */
export function JiraConnectionForm({
  connection,
  submitLabel,
  onSave,
  actions,
  saidByPage,
}: JiraConnectionFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const stored = connection?.hasApiToken ?? false;
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = useForm<FormValues, unknown, FormOutput>({
    resolver: zodResolver(jiraConnectionForm),
    defaultValues: { baseUrl: connection?.baseUrl ?? '', email: connection?.email ?? '', apiToken: '' },
  });

  const onSubmit = handleSubmit(async ({ apiToken, ...rest }) => {
    setFailure(null);
    const token = apiToken.trim();
    if (!token && !stored) {
      setError('apiToken', { message: 'API token is required' }, { shouldFocus: true });
      return;
    }
    try {
      await onSave(token ? { ...rest, apiToken: token } : rest);
    } catch (error) {
      // Said once: under its field when it names one, else above the form.
      const saidByFields = applyFieldErrors(error, FIELDS, setError);
      setFailure(saidByPage?.(error) ? null : fieldOnlyFailure(error, saidByFields));
      return;
    }
    reset({ ...rest, apiToken: '' });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Jira connection">
      <Stack gap="md" maw={600}>
        <FormFailure message={failure} />
        <Controller
          control={control}
          name="baseUrl"
          render={({ field, fieldState }) => (
            <TextInput
              label="Base URL"
              description="Your Jira site’s address."
              placeholder="https://your-team.atlassian.net"
              type="url"
              required
              autoComplete="off"
              spellCheck={false}
              autoFocus={!connection}
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="email"
          render={({ field, fieldState }) => (
            <TextInput
              label="E-mail"
              description="The Jira account Vexil reads issues as: one that can browse the projects you link."
              placeholder="vexil@example.com"
              type="email"
              required
              autoComplete="off"
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="apiToken"
          render={({ field, fieldState }) => (
            <PasswordInput
              label="API token"
              description={
                stored ? (
                  API_TOKEN_STORED_HINT
                ) : (
                  <>
                    Create one in your{' '}
                    <Anchor href={API_TOKEN_HELP_URL} target="_blank" rel="noopener noreferrer" size="xs">
                      Atlassian account settings
                    </Anchor>
                    . Vexil stores it encrypted and never shows it again.
                  </>
                )
              }
              required={!stored}
              autoComplete="new-password"
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          {actions}
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
