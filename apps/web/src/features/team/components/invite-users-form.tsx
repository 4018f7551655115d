import { useState } from 'react';
import { Controller, useFieldArray, useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ActionIcon, Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { INVITATIONS_SENT_MESSAGE, inviteForm, type InviteForm, type InvitesResult } from '@vexil/core';
import { CopyKeyButton } from '../../../components/api-keys-modal';
import { applyFieldErrors, fieldOnlyFailure, FormFailure } from '../../../components/form-failure';
import { closeModal, showModal } from '../../../lib/modals';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { notifySuccess } from '../../../lib/notify';
import { useSendInvitations } from '../../../entities/team/api/send-invitations';

const EMPTY_ROW = { email: '', firstName: '', lastName: '' };

/** The form's values as typed (names may be missing until parsed). */
type InviteFormValues = z.input<typeof inviteForm>;

/**
 * What the modal shows once the invitations are stored but not all e-mailed: mail is not configured
 * on this server, or sending failed. Each link can be copied and passed on; inviting the address
 * again sends a new one.
 */
export function InvitationLinks({ result }: { result: InvitesResult }) {
  const failed = result.mail === 'failed';
  const links = result.invitations.filter((invitation) => invitation.link !== null);
  return (
    <Stack gap="md">
      <Alert
        color={failed ? 'red' : 'blue'}
        variant="light"
        role={failed ? 'alert' : 'status'}
        icon={
          failed ? (
            <IconAlertCircle size={18} aria-hidden="true" />
          ) : (
            <IconInfoCircle size={18} aria-hidden="true" />
          )
        }
        title={failed ? 'Some invitations were not e-mailed' : 'Mail is not configured'}
      >
        {result.message}
      </Alert>
      <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Invitation links">
        {links.map((invitation) => (
          <li key={invitation.id}>
            <TextInput
              label={`Invitation link for ${invitation.email}`}
              value={invitation.link ?? ''}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              rightSection={
                <CopyKeyButton
                  value={invitation.link ?? ''}
                  label={`link for ${invitation.email}`}
                  hidden={false}
                />
              }
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            />
          </li>
        ))}
      </Stack>
      <Text size="xs" c="dimmed">
        Each link works once and expires in 7 days. Anyone with a link can join as that person, so send it to
        them only.
      </Text>
      <Group justify="flex-end">
        <Button onClick={() => closeModal()}>Done</Button>
      </Group>
    </Stack>
  );
}

function InviteRow({
  control,
  index,
  count,
  narrow,
  onRemove,
}: {
  control: Control<InviteFormValues, unknown, InviteForm>;
  index: number;
  count: number;
  narrow: boolean;
  onRemove: () => void;
}) {
  // On a wide screen the rows form a table: only the first row shows the labels. Every field is named
  // with its row's number once there are several.
  const showLabels = narrow || index === 0;
  const named = (field: string) => ({
    label: showLabels ? field : undefined,
    'aria-label': count > 1 ? `${field} ${index + 1}` : field,
  });
  const fields = (
    <SimpleGrid cols={narrow ? 1 : 3} spacing="sm" verticalSpacing="xs" style={{ flex: 1 }}>
      <Controller
        control={control}
        name={`invites.${index}.email`}
        render={({ field, fieldState }) => (
          <TextInput
            {...named('Email')}
            type="email"
            required
            autoComplete="off"
            placeholder="name@example.com"
            data-autofocus={index === 0 ? true : undefined}
            error={fieldState.error?.message}
            {...field}
          />
        )}
      />
      <Controller
        control={control}
        name={`invites.${index}.firstName`}
        render={({ field, fieldState }) => (
          <TextInput
            {...named('First name')}
            autoComplete="off"
            error={fieldState.error?.message}
            {...field}
          />
        )}
      />
      <Controller
        control={control}
        name={`invites.${index}.lastName`}
        render={({ field, fieldState }) => (
          <TextInput
            {...named('Last name')}
            autoComplete="off"
            error={fieldState.error?.message}
            {...field}
          />
        )}
      />
    </SimpleGrid>
  );
  const remove = (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      mt={showLabels && !narrow ? 25 : 0}
      disabled={count === 1}
      aria-label={`Remove invitation ${index + 1}`}
      onClick={onRemove}
    >
      <IconTrash size={16} aria-hidden="true" />
    </ActionIcon>
  );
  if (narrow) {
    return (
      <Paper component="li" withBorder radius="md" p="sm">
        <Stack gap="xs">
          {fields}
          <Group justify="flex-end">{remove}</Group>
        </Stack>
      </Paper>
    );
  }
  return (
    <Group component="li" align="flex-start" gap="xs" wrap="nowrap">
      {fields}
      {remove}
    </Group>
  );
}

export type InviteUsersFormProps = {
  /** How many more people the plan's seats allow (Infinity without a limit). */
  remainingSeats: number;
};

/**
 * docs/product.md §2 "Invite Users", §5, §8: rows of e-mail (required and valid) and optional names,
 * added and removed, at least one remaining. "Invitations sent." when every e-mail went out; when
 * mail is not configured or failed, the links to pass on; a refusal shows in the form.
 */
export function InviteUsersForm({ remainingSeats }: InviteUsersFormProps) {
  const narrow = useNarrowScreen();
  const send = useSendInvitations();
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<InvitesResult | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm({ resolver: zodResolver(inviteForm), defaultValues: { invites: [EMPTY_ROW] } });
  const rows = useFieldArray({ control, name: 'invites' });

  const onSubmit = handleSubmit(async (values: InviteForm) => {
    setFailure(null);
    let answer: InvitesResult;
    try {
      answer = await send.mutateAsync(values.invites);
    } catch (error) {
      // The server names a row's fields "{index}.email"; the form "invites.{index}.email".
      const mapping = Object.fromEntries(
        values.invites.flatMap((_, index) =>
          (['email', 'firstName', 'lastName'] as const).map((field) => [
            `${index}.${field}`,
            `invites.${index}.${field}` as const,
          ]),
        ),
      );
      // A refusal the fields say in full (an address already a member) is said once, under its field.
      setFailure(fieldOnlyFailure(error, applyFieldErrors(error, mapping, setError)));
      return;
    }
    if (answer.mail === 'sent') {
      notifySuccess(INVITATIONS_SENT_MESSAGE);
      closeModal();
      return;
    }
    setResult(answer);
  });

  if (result) return <InvitationLinks result={result} />;

  const full = rows.fields.length >= remainingSeats;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Invite Users">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Each person gets an e-mail with a link to join, which works once and expires in 7 days. They join as
          Read-only users; change their role once they are active.
        </Text>
        <FormFailure message={failure} />
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {rows.fields.map((row, index) => (
            <InviteRow
              key={row.id}
              control={control}
              index={index}
              count={rows.fields.length}
              narrow={narrow}
              onRemove={() => rows.remove(index)}
            />
          ))}
        </Stack>
        <Group justify="space-between" gap="sm">
          <Button
            variant="subtle"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            disabled={full}
            onClick={() => rows.append(EMPTY_ROW)}
          >
            Add another
          </Button>
          {full && Number.isFinite(remainingSeats) ? (
            <Text size="sm" c="dimmed">
              {remainingSeats === 1 ? 'One seat is left.' : `${remainingSeats} seats are left.`}
            </Text>
          ) : null}
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Send Invitations
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the Invite Users modal on top of the modal stack. */
export function openInviteUsersForm(props: InviteUsersFormProps): string {
  return showModal({ title: 'Invite Users', size: 'xl', children: <InviteUsersForm {...props} /> });
}
