import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { accountKeys } from '../../../entities/account/api/query-keys';
import { logout } from '../api/logout';

/**
 * On another organisation's sign-in page (`/{organisation}/login`) while signed in: who is signed in
 * where, a way back there, and "Sign out of {organisation}", after which this page's form is the
 * only way in (docs/product.md §2 "/login").
 */
export function SignedInElsewhere(props: { organisationName: string; email: string }) {
  const { organisationName, email } = props;
  const queryClient = useQueryClient();
  const [signingOut, setSigningOut] = useState(false);

  const signOut = async () => {
    setSigningOut(true);
    await logout().catch(() => undefined);
    // The session is asked for again (now refused), so this page stays, signed out; signing in here
    // clears everything else cached.
    await queryClient.resetQueries({ queryKey: accountKeys.initial });
  };

  return (
    <Alert
      role="status"
      color="blue"
      variant="light"
      icon={<IconUserCircle size={18} aria-hidden="true" />}
      title={`You are signed in to ${organisationName} as ${email}.`}
    >
      <Text size="sm">Sign out to sign in to this organisation, or go back.</Text>
      <Group gap="sm" mt="xs" wrap="wrap">
        <Button size="xs" variant="default" loading={signingOut} onClick={() => void signOut()}>
          Sign out of {organisationName}
        </Button>
        <Anchor component={Link} to="/" size="sm">
          Back to {organisationName}
        </Anchor>
      </Group>
    </Alert>
  );
}
