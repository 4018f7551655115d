import type { ReactNode } from 'react';
import { Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { Token } from '@vexil/core';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteToken } from '../../../entities/tokens/api/delete-token';
import { useTokens } from '../../../entities/tokens/api/get-tokens';
import { openNewTokenModal } from './new-token-modal';
import { TokensList } from './tokens-list';

/** docs/product.md §8 "Token". */
export const TOKEN_DELETED_MESSAGE = 'Token has been deleted';
export const TOKEN_DELETE_FAILED_MESSAGE = 'There was an error deleting the token';
export const NO_TOKENS_MESSAGE = 'You have no access tokens yet.';

function NewTokenButton() {
  return (
    <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => openNewTokenModal()}>
      New Token
    </Button>
  );
}

/**
 * Admin › Access Tokens (docs/product.md §2): the signed-in member's personal access tokens, New Token,
 * and Delete after a confirmation. A token acts as its owner against the Vexil API.
 */
export function AccessTokensAdmin() {
  const list = useTokens();
  const deleteToken = useDeleteToken();

  const removeToken = async (token: Token) => {
    const confirmed = await confirm({
      title: 'Delete Token',
      message: `Delete the token "${token.name}"? Scripts and tools using it stop working at once.`,
      confirmLabel: 'Delete token',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteToken.mutateAsync(token.id);
    } catch {
      notifyError(TOKEN_DELETE_FAILED_MESSAGE);
      return;
    }
    notifySuccess(TOKEN_DELETED_MESSAGE);
  };

  let body: ReactNode;
  if (list.isError && !list.data) {
    body = (
      <LoadError
        title="We could not load your access tokens."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (list.data && list.data.length === 0) {
    body = (
      <EmptyState maw={460}>
        <Text fw={500}>{NO_TOKENS_MESSAGE}</Text>
        <Text c="dimmed" size="sm">
          Create one for each script or tool that calls the Vexil API, so that you can revoke each on its own.
        </Text>
        <NewTokenButton />
      </EmptyState>
    );
  } else {
    body = (
      <TokensList
        tokens={list.data ?? null}
        deletingId={deleteToken.isPending ? deleteToken.variables : null}
        onDelete={(token) => void removeToken(token)}
      />
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4} maw={720}>
          <Title order={2}>Access Tokens</Title>
          <Text c="dimmed" size="sm">
            Personal access tokens let scripts and tools call the Vexil API as you, with your permissions as
            they are at each call. Send one as <Code>Authorization: Bearer {'<token>'}</Code>.
          </Text>
        </Stack>
        <NewTokenButton />
      </Group>
      {body}
    </Stack>
  );
}
