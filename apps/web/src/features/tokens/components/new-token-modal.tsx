import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { z } from 'zod';
import {
  TOKEN_EXPIRY_OPTIONS,
  tokenForm,
  tokenInputOf,
  type Token,
  type TokenExpiryOption,
  type TokenForm,
} from '@vexil/core';
import { applyFieldErrors, FormFailure } from '../../../components/form-failure';
import { errorReason } from '../../../components/load-error';
import { COPIED_MESSAGE } from '../../../components/copy-tooltip';
import { closeModal, showModal } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCreateToken } from '../../../entities/tokens/api/create-token';

/** docs/product.md §8 "Token". */
export const TOKEN_CREATE_FAILED_MESSAGE = 'There was an error creating the token';
export const tokenCreatedMessage = (name: string) => `${name} has been created`;

export const SHOWN_ONCE_TITLE = 'Copy your token now';
export const SHOWN_ONCE_MESSAGE =
  'You won’t be able to see it again. Keep it somewhere safe, such as a password manager or your CI’s secrets; if you lose it, delete it and create another.';

const EXPIRY_LABELS: Readonly<Record<TokenExpiryOption, string>> = {
  never: 'Never',
  '30': '30 days',
  '90': '90 days',
  '365': '365 days',
};
const EXPIRY_CHOICES = TOKEN_EXPIRY_OPTIONS.map((value) => ({ value, label: EXPIRY_LABELS[value] }));
/** A token that expires is the safer default; "Never" is one choice away. */
const DEFAULT_EXPIRY: TokenExpiryOption = '90';

/** The whole token, shown once, with a button that copies it. */
function CreatedToken({ token }: { token: Token }) {
  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
        title={SHOWN_ONCE_TITLE}
      >
        {SHOWN_ONCE_MESSAGE}
      </Alert>
      {/* A text area, so that the whole token shows, wrapped on a phone, and can be selected. */}
      <Textarea
        label={token.name}
        description="Your new personal access token"
        value={token.key}
        readOnly
        autosize
        minRows={1}
        onFocus={(event) => event.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
      />
      <Text size="sm" c="dimmed">
        Send it with each call to the Vexil API as <Code>Authorization: Bearer {'<token>'}</Code>. It acts as
        you, with your permissions.
      </Text>
      <Group justify="flex-end" gap="sm">
        <CopyButton value={token.key} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'light' : 'default'}
              color={copied ? 'teal' : undefined}
              leftSection={
                copied ? (
                  <IconCheck size={16} aria-hidden="true" />
                ) : (
                  <IconCopy size={16} aria-hidden="true" />
                )
              }
              onClick={copy}
            >
              {copied ? COPIED_MESSAGE : 'Copy token'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={() => closeModal()}>Done</Button>
      </Group>
    </Stack>
  );
}

/**
 * docs/product.md §2 "Access Tokens", §5 "Token": the New Token modal. A name is required (Create is
 * disabled while it is blank) and an expiry chosen (never, 30, 90 or 365 days). Once created, the
 * modal shows the whole token, the only time it can be seen, with a copy button.
 */
export function NewTokenModal() {
  const create = useCreateToken();
  const [created, setCreated] = useState<Token | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<z.input<typeof tokenForm>, unknown, TokenForm>({
    resolver: zodResolver(tokenForm),
    defaultValues: { name: '', expiry: DEFAULT_EXPIRY },
  });
  const blank = useWatch({ control, name: 'name' }).trim() === '';

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    let token: Token;
    try {
      token = await create.mutateAsync(tokenInputOf(values));
    } catch (error) {
      notifyError(TOKEN_CREATE_FAILED_MESSAGE);
      applyFieldErrors(error, { name: 'name', expiresInDays: 'expiry' } as const, setError);
      setFailure(errorReason(error) || null);
      return;
    }
    notifySuccess(tokenCreatedMessage(token.name));
    setCreated(token);
  });

  if (created) return <CreatedToken token={created} />;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New Token">
      <Stack gap="md">
        <FormFailure message={failure} />
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput
              label="Name"
              description="What the token is for, such as the script or tool that uses it."
              placeholder="Deploy script"
              data-autofocus
              required
              error={fieldState.error?.message}
              {...field}
            />
          )}
        />
        <Controller
          control={control}
          name="expiry"
          render={({ field }) => (
            <Select
              label="Expiration"
              description="After this the token stops working."
              data={EXPIRY_CHOICES}
              allowDeselect={false}
              value={field.value}
              onChange={(value) => field.onChange(value ?? DEFAULT_EXPIRY)}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting} disabled={blank}>
            Create token
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the New Token modal on top of the modal stack. A click beside it does not close it, nor lose the token. */
export function openNewTokenModal(): string {
  // Wide enough for the whole token on one line on a computer.
  return showModal({
    title: 'New Token',
    size: 'lg',
    closeOnClickOutside: false,
    children: <NewTokenModal />,
  });
}
