import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useMemo } from 'react';
import { z } from 'zod';
import { normaliseFeatureKey } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { featureKeys } from './query-keys';

const featureKeyCheckSchema = z.object({ key: z.string(), taken: z.boolean(), freeKey: z.string() });

/** Whether a project has a (normalised) key, and the first free key made from it (the key itself when free). */
export type FeatureKeyCheck = z.infer<typeof featureKeyCheckSchema>;

/** The key is checked this long after the last keystroke, as the feature list's search is sent. */
export const KEY_CHECK_DEBOUNCE_MS = 250;

/** The server's words for a key the project has, shown before the server would have to say them. */
export function keyTakenMessage(key: string): string {
  return `A feature with the key "${key}" already exists in this project.`;
}

/**
 * GET /api/v1/projects/{projectKey}/feature-key?key=: whether a new feature may have the key. The form
 * shows the answer beside the field, so no generic toasts: a failed check leaves the server to refuse.
 */
export function checkFeatureKey(
  projectKey: string,
  key: string,
  signal?: AbortSignal,
): Promise<FeatureKeyCheck> {
  return apiClient.get(`/api/v1/projects/${encodeURIComponent(projectKey)}/feature-key`, {
    schema: featureKeyCheckSchema,
    query: { key },
    notifyErrors: false,
    signal,
  });
}

export const featureKeyCheckQueryOptions = (projectKey: string, key: string) =>
  queryOptions({
    queryKey: featureKeys.keyCheck(projectKey, key),
    queryFn: ({ signal }) => checkFeatureKey(projectKey, key, signal),
    // A key taken a moment ago by someone else must not be offered as free for long.
    staleTime: 5_000,
  });

/**
 * A key as the user types it into a key field: normalised like {@link normaliseFeatureKey}, except that a
 * separator just typed stays as one trailing `-`, so that the next word is not glued on (`Bad Key` reads
 * `bad-` then `bad-k`). Leaving the field drops it.
 */
export function featureKeyAsTyped(input: string): string {
  const key = normaliseFeatureKey(input);
  // Whatever the input ends with, a letter after it shows whether it separates words.
  return key !== '' && normaliseFeatureKey(`${input}a`) === `${key}-a` ? `${key}-` : key;
}

/** How the hook reads and writes the form's key field (react-hook-form's `getValues`/`setValue`/`setError`). */
export type KeyField = {
  get: () => string;
  set: (key: string) => void;
  /** Shows `message` on the field and focuses it. */
  refuse: (message: string) => void;
};

/** The react-hook-form methods {@link useKeyField} needs, of a form with a `key` field. */
export type KeyFieldForm = {
  getValues: (name: 'key') => string;
  setValue: (name: 'key', value: string, options?: { shouldValidate?: boolean }) => void;
  setError: (name: 'key', error: { message: string }) => void;
  setFocus: (name: 'key') => void;
};

/**
 * The {@link KeyField} of a react-hook-form form: writes validate once the form was submitted, and
 * a refusal shows on the field and focuses it.
 */
export function useKeyField(
  { getValues, setValue, setError, setFocus }: KeyFieldForm,
  isSubmitted: boolean,
): KeyField {
  return useMemo(
    () => ({
      get: () => getValues('key'),
      set: (key: string) => setValue('key', key, { shouldValidate: isSubmitted }),
      refuse: (message: string) => {
        setError('key', { message });
        setFocus('key');
      },
    }),
    [getValues, setValue, setError, setFocus, isSubmitted],
  );
}

export type NewFeatureKeyOptions = {
  /** The project the feature goes to; nothing is checked without one. */
  projectKey: string | null;
  name: string;
  /** The key field's value. */
  key: string;
  /** Whether the user has typed into the key field: the key no longer follows the name. */
  keyEdited: boolean;
  field: KeyField;
};

/**
 * The key field of the forms that create a feature (docs/product.md §5 "Feature"). While the key follows
 * the name it is the name's key made unique in the project by a trailing number, checked against the
 * project a quarter of a second after the last keystroke, and the hook keeps the field showing it; a
 * key the user typed is kept as typed (normalised) and, when the project has it, `taken` says so with
 * the free key to offer instead.
 */
export function useNewFeatureKey({ projectKey, name, key, keyEdited, field }: NewFeatureKeyOptions) {
  const queryClient = useQueryClient();
  const wanted = normaliseFeatureKey(keyEdited ? key : name);
  const [debounced] = useDebouncedValue(wanted, KEY_CHECK_DEBOUNCE_MS);
  const query = useQuery({
    ...featureKeyCheckQueryOptions(projectKey ?? '', debounced),
    enabled: Boolean(projectKey) && debounced !== '',
  });
  // Only the answer about the key on screen counts: an earlier key's must not decide this one.
  const check = query.data?.key === wanted ? query.data : undefined;
  const followingKey = wanted === '' ? '' : (check?.freeKey ?? wanted);
  const { get, set, refuse } = field;

  useEffect(() => {
    if (!keyEdited && get() !== followingKey) set(followingKey);
  }, [followingKey, keyEdited, get, set]);

  /**
   * Before Create: shows `shown` (the validated key, a trailing separator dropped) and asks once more
   * about it, so that a key taken since it was checked, or before its check answered, is not sent.
   * When it is taken, the field says so (showing the free key instead while it follows the name) and
   * this resolves to false. A failed check resolves to true: the create call then refuses a taken key.
   */
  const mayCreate = useCallback(
    async (projectKey: string, shown: string): Promise<boolean> => {
      if (get() !== shown) set(shown);
      const asked = keyEdited ? shown : normaliseFeatureKey(name);
      const fresh = await queryClient
        .fetchQuery({ ...featureKeyCheckQueryOptions(projectKey, asked), staleTime: 0 })
        .catch(() => null);
      if (!fresh) return true;
      const refused = keyEdited ? fresh.taken : fresh.freeKey !== shown;
      if (!refused) return true;
      if (!keyEdited) set(fresh.freeKey);
      refuse(keyTakenMessage(shown));
      return false;
    },
    [queryClient, keyEdited, name, get, set, refuse],
  );

  return {
    /** The typed key's answer when the project already has that key. */
    taken: keyEdited && check?.taken ? check : null,
    mayCreate,
  };
}
