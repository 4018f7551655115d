import { Avatar, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { AUTHORITY_LABELS, primaryAuthority } from '@vexil/core';
import { confirm } from '../../../lib/modals';
import { fullName, initials } from '../../../lib/names';
import { useSession } from '../../../lib/session';
import { useSignOutEverywhere } from '../api/sign-out-everywhere';

/** /profile: the signed-in user's full name and e-mail address. */
export function ProfilePage() {
  const { principalUser: user } = useSession();
  const name = fullName(user);
  const role = primaryAuthority(user.authorities);

  return (
    <Stack gap="lg" maw={640}>
      <Title order={1}>Profile</Title>
      <Paper withBorder radius="md" p="lg">
        <Group gap="lg" wrap="nowrap" align="center">
          <Avatar size={64} radius="xl" color="initials" name={name} aria-hidden="true">
            {initials(user)}
          </Avatar>
          <Stack gap={6} align="flex-start" style={{ minWidth: 0 }}>
            <Text fw={600} size="lg" truncate>
              {name}
            </Text>
            {role ? (
              <Badge variant="light" radius="sm">
                {AUTHORITY_LABELS[role]}
              </Badge>
            ) : null}
          </Stack>
        </Group>
        <Stack component="dl" gap="md" mt="xl" mb={0}>
          <ProfileField label="Full name" value={name} />
          <ProfileField label="E-mail" value={user.email} />
        </Stack>
      </Paper>
      <SignOutEverywhere />
    </Stack>
  );
}

/**
 * "Sign out everywhere": after a confirmation, ends every session of the user's (other browsers,
 * other devices, this one), then signs out here.
 */
function SignOutEverywhere() {
  const navigate = useNavigate();
  const signOut = useSignOutEverywhere();

  const onClick = async () => {
    const confirmed = await confirm({
      title: 'Sign out everywhere',
      message:
        'End all of your sessions, in every browser and on every device, this one included? You will need to sign in again.',
      confirmLabel: 'Sign out everywhere',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await signOut.mutateAsync();
    } catch {
      // The api client says why (or, for an ended session, signs out already).
      return;
    }
    await navigate('/logout', { replace: true });
  };

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="sessions-title">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4" id="sessions-title">
          Sessions
        </Title>
        <Text size="sm" c="dimmed">
          Signed in on a computer you no longer use, or lost a phone? Signing out everywhere ends every
          session of yours, this one included.
        </Text>
        <Button
          variant="light"
          color="red"
          leftSection={<IconLogout size={16} aria-hidden="true" />}
          loading={signOut.isPending}
          onClick={() => void onClick()}
        >
          Sign out everywhere
        </Button>
      </Stack>
    </Paper>
  );
}

function ProfileField({ label, value }: { label: string; value: string }) {
  return (
    <Group component="div" gap="xs" wrap="nowrap" align="baseline">
      <Text component="dt" size="sm" c="dimmed" w={110} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text component="dd" m={0} style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
    </Group>
  );
}
