import { Avatar, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { AUTHORITY_LABELS, primaryAuthority } from '@vexil/core';
import { fullName, initials } from '../../../lib/names';
import { useSession } from '../../../lib/session';

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
    </Stack>
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
