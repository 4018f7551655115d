/** The roles domain's cache keys: the custom roles and the built-in authorities. */
export const roleKeys = {
  all: ['roles'] as const,
  list: () => [...roleKeys.all, 'list'] as const,
  authorities: () => [...roleKeys.all, 'authorities'] as const,
};
