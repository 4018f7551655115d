/** The targets domain's cache keys. */
export const targetKeys = {
  all: ['targets'] as const,
  /** The user attributes a project's rules may test. */
  list: (projectKey: string) => [...targetKeys.all, 'list', projectKey] as const,
  /** Every suggestion list of attribute values: the values rules use are among them. */
  values: () => [...targetKeys.all, 'values'] as const,
  valuesOf: (projectKey: string, targetKey: string, query: string) =>
    [...targetKeys.values(), projectKey, targetKey, query] as const,
};
