import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { DAY_MS, type Token, type TokenInput } from '@vexil/core';
import { closeAllModals } from '../lib/modals';
import { createTestQueryClient, jsonResponse, Providers, stubApi } from './test-utils';
import { AccessTokensAdmin } from '../features/tokens/components/access-tokens-admin';

/*
 * Stands in for the access tokens API in the Access Tokens tab's tests: one member's tokens in memory,
 * listed masked and newest first; creating answers the whole token once; deleting removes it.
 * Handlers given to serveTokens replace the default ones.
 */

export type ApiHandler = Parameters<typeof stubApi>[0][string];

export const LIST_PATH = '/api/internal/v1/tokens';

let ids = 0;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const secret = (n: number) => `vxp_${String(n).padStart(4, '0')}${'Ab3'.repeat(13)}`;

export const masked = (key: string) => `vxp_…${key.slice(-4)}`;

export function tokenFixture(name: string, overrides: Partial<Token> = {}): Token {
  ids += 1;
  return {
    id: uuid(7000 + ids),
    name,
    key: masked(secret(ids)),
    createdDate: '2026-03-03T16:05:00.000Z',
    expiresDate: null,
    lastUsedDate: null,
    ...overrides,
  };
}

export function serveTokens(options: { tokens?: Token[]; handlers?: Record<string, ApiHandler> } = {}) {
  let tokens = [...(options.tokens ?? [])];
  const created: Token[] = [];
  const deleteHandler =
    (id: string): ApiHandler =>
    () => {
      tokens = tokens.filter((t) => t.id !== id);
      return new Response(null, { status: 204 });
    };
  const handlers: Record<string, ApiHandler> = {
    [`GET ${LIST_PATH}`]: () => jsonResponse(200, tokens),
    [`POST ${LIST_PATH}`]: ({ body }) => {
      const input = body as TokenInput;
      ids += 1;
      const key = secret(ids);
      const now = Date.now();
      const token: Token = {
        id: uuid(7000 + ids),
        name: input.name.trim(),
        key,
        createdDate: new Date(now).toISOString(),
        expiresDate: input.expiresInDays ? new Date(now + input.expiresInDays * DAY_MS).toISOString() : null,
        lastUsedDate: null,
      };
      tokens = [{ ...token, key: masked(key) }, ...tokens];
      handlers[`DELETE ${LIST_PATH}/${token.id}`] = deleteHandler(token.id);
      created.push(token);
      return jsonResponse(201, token);
    },
    ...Object.fromEntries(
      tokens.map((token) => [`DELETE ${LIST_PATH}/${token.id}`, deleteHandler(token.id)]),
    ),
    ...options.handlers,
  };
  const calls = stubApi(handlers);
  return { calls, created };
}

/** Renders the Access Tokens tab with the modal stack and toasts. */
export function renderAccessTokens() {
  const queryClient = createTestQueryClient();
  const result = render(
    <Providers queryClient={queryClient}>
      <ModalsProvider>
        <Notifications />
        <AccessTokensAdmin />
      </ModalsProvider>
    </Providers>,
  );
  return { ...result, queryClient, user: userEvent.setup() };
}

export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}
