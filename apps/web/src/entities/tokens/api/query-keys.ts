/** The access tokens domain's cache keys: the signed-in member's own tokens. */
export const tokenKeys = {
  all: ['tokens'] as const,
  list: () => [...tokenKeys.all, 'list'] as const,
};
