import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { SSO_MAX_ALLOWED_DOMAINS, type SsoConnection } from '@vexil/core';
import { FormFailure } from '../../../components/form-failure';
import { isApiError } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useSaveSsoConnection } from '../../../entities/sso/api/save-sso-connection';
import { RedirectUri } from './redirect-uri';
import {
  ROLE_OPTIONS,
  domainsError,
  formFieldOf,
  inputOf,
  normaliseDomain,
  ssoForm,
  valuesOf,
  type SsoFormOutput,
  type SsoFormValues,
} from './sso-form-values';

export const SSO_SAVED_MESSAGE = 'Single sign-on saved.';
export const SECRET_STORED_HINT = 'A secret is stored; leave empty to keep it.';
export const NO_SECRET_HINT = 'Leave empty for a public client that signs in with PKCE only.';
export const REQUIRED_HINT =
  'Members who are not organisation admins can then sign in only with single sign-on. Organisation admins can still use their password, so that they can mend the connection if the identity provider fails.';

export type SsoFormProps = {
  /** The stored connection; null while setting one up. */
  connection: SsoConnection | null;
  redirectUri: string;
  /** Setting up: goes back to the empty state. */
  onCancel?: () => void;
  /** Given when a connection is stored: asks, then removes it. */
  onRemove?: () => void;
  removing?: boolean;
};

/**
 * docs/product.md §2 "Single sign-on": the connection to the organisation's OpenID Connect identity
 * provider. The client secret is write-only: a stored one is never shown, an empty field keeps it, and
 * "Remove the stored secret" clears it. A refused save keeps everything typed and says why in place.
 */
export function SsoForm({ connection, redirectUri, onCancel, onRemove, removing = false }: SsoFormProps) {
  const save = useSaveSsoConnection();
  const [failure, setFailure] = useState<string | null>(null);
  const hasClientSecret = connection?.hasClientSecret ?? false;
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<SsoFormValues, unknown, SsoFormOutput>({
    resolver: zodResolver(ssoForm),
    defaultValues: valuesOf(connection),
  });
  const displayName = useWatch({ control, name: 'displayName' }).trim();
  const clearSecret = useWatch({ control, name: 'clearSecret' });
  const domains = useWatch({ control, name: 'allowedDomains' });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    let saved: SsoConnection;
    try {
      saved = await save.mutateAsync(inputOf(values, hasClientSecret));
    } catch (error) {
      if (isApiError(error)) {
        // The first field refused takes the focus, so that it shows however far the form scrolls.
        let focused = false;
        for (const { field, message } of error.errors) {
          const target = formFieldOf(field);
          if (!target) continue;
          setError(target, { message }, { shouldFocus: !focused });
          focused = true;
        }
        setFailure([error.title, error.detail].filter(Boolean).join(' ') || error.message);
      } else {
        setFailure('Something went wrong, please try again.');
      }
      return;
    }
    notifySuccess(SSO_SAVED_MESSAGE);
    reset(valuesOf(saved));
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Single sign-on connection">
      <Stack gap="lg" maw={680}>
        <RedirectUri value={redirectUri} />

        <Stack gap="md">
          <Title order={3} fz="md">
            Identity provider
          </Title>
          <Controller
            control={control}
            name="displayName"
            render={({ field, fieldState }) => (
              <TextInput
                label="Display name"
                description={`The sign-in page offers “Sign in with ${displayName || '{display name}'}”.`}
                placeholder="Okta"
                required
                autoComplete="off"
                // Setting up: the first field to fill takes the focus from the button that opened the form.
                autoFocus={connection === null}
                error={fieldState.error?.message}
                {...field}
              />
            )}
          />
          <Controller
            control={control}
            name="issuer"
            render={({ field, fieldState }) => (
              <TextInput
                label="Issuer URL"
                description="Your identity provider’s address. Vexil reads its settings from /.well-known/openid-configuration below it."
                placeholder="https://login.example.com"
                required
                type="url"
                autoComplete="off"
                spellCheck={false}
                error={fieldState.error?.message}
                {...field}
              />
            )}
          />
          <Controller
            control={control}
            name="clientId"
            render={({ field, fieldState }) => (
              <TextInput
                label="Client ID"
                required
                autoComplete="off"
                spellCheck={false}
                error={fieldState.error?.message}
                {...field}
              />
            )}
          />
          <Stack gap={6}>
            <Controller
              control={control}
              name="clientSecret"
              render={({ field, fieldState }) => (
                <PasswordInput
                  label="Client secret"
                  description={hasClientSecret ? SECRET_STORED_HINT : NO_SECRET_HINT}
                  autoComplete="new-password"
                  disabled={clearSecret}
                  error={fieldState.error?.message}
                  {...field}
                  value={field.value ?? ''}
                />
              )}
            />
            {hasClientSecret ? (
              <Controller
                control={control}
                name="clearSecret"
                render={({ field }) => (
                  <Checkbox
                    label="Remove the stored secret"
                    description="For a public client that signs in with PKCE only."
                    checked={field.value}
                    onChange={(event) => {
                      field.onChange(event.currentTarget.checked);
                      if (event.currentTarget.checked) setValue('clientSecret', '');
                    }}
                    onBlur={field.onBlur}
                    ref={field.ref}
                  />
                )}
              />
            ) : null}
          </Stack>
        </Stack>

        <Stack gap="md">
          <Title order={3} fz="md">
            Who may sign in
          </Title>
          <Controller
            control={control}
            name="allowedDomains"
            render={({ field }) => (
              <TagsInput
                label="Allowed e-mail domains"
                description="People whose e-mail address is at one of these domains may sign in; those without an account join with the default role. Press Enter or type a comma after each."
                placeholder={domains.length === 0 ? 'example.com' : undefined}
                required
                value={field.value}
                onChange={(values) =>
                  field.onChange([...new Set(values.map(normaliseDomain).filter((value) => value !== ''))])
                }
                onBlur={field.onBlur}
                ref={field.ref}
                splitChars={[',', ' ', ';']}
                maxTags={SSO_MAX_ALLOWED_DOMAINS}
                clearable
                error={domainsError(errors, domains)}
              />
            )}
          />
          <Controller
            control={control}
            name="defaultRole"
            render={({ field, fieldState }) => (
              <Select
                label="Default role"
                description="The role of a person signing in for the first time. Change it later on the Team tab."
                data={ROLE_OPTIONS}
                allowDeselect={false}
                value={field.value}
                onChange={(value) => {
                  if (value) field.onChange(value);
                }}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="required"
            render={({ field }) => (
              <Switch
                label="Require single sign-on for members"
                description={REQUIRED_HINT}
                checked={field.value ?? false}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                ref={field.ref}
              />
            )}
          />
        </Stack>

        {/* By the button pressed: why the save failed (the fields say what to correct). */}
        <FormFailure message={failure} />
        <Group justify="space-between" gap="sm">
          {onRemove ? (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden="true" />}
              loading={removing}
              onClick={onRemove}
            >
              Remove single sign-on
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">
            {onCancel ? (
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
            ) : null}
            <Button type="submit" loading={isSubmitting}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
