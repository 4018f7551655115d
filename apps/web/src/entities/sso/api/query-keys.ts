/** The single sign-on domain's cache keys: the organisation's connection and its redirect URI. */
export const ssoKeys = {
  all: ['sso'] as const,
  settings: () => [...ssoKeys.all, 'settings'] as const,
};
