/*
 * Where the Tutorial is, kept in this browser per user, project and environment (docs/product.md §2
 * "Tutorial"): its step, its language and the feature it works with. Where localStorage is refused (some
 * private modes throw on access), progress lasts as long as the page.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { DEFAULT_TUTORIAL_LANGUAGE, isTutorialLanguage, type TutorialLanguage } from './snippets';

export const TUTORIAL_STEPS = [1, 2, 3] as const;
export type TutorialStep = (typeof TUTORIAL_STEPS)[number];

export type TutorialProgress = {
  step: TutorialStep;
  language: TutorialLanguage;
  /** The feature created or chosen in step 1; null until then. */
  featureKey: string | null;
};

/** Where the tutorial starts, and where Reset takes it (docs/product.md §4 "Tutorial"). */
export const INITIAL_PROGRESS: TutorialProgress = {
  step: 1,
  language: DEFAULT_TUTORIAL_LANGUAGE,
  featureKey: null,
};

/** Whose progress, by ids: a user's, in one environment of one project. */
export type ProgressOwner = { userId: string; projectId: string; environmentId: string };

export function progressKey({ userId, projectId, environmentId }: ProgressOwner): string {
  return `vexil.tutorial.${userId}.${projectId}.${environmentId}`;
}

const inMemory = new Map<string, string>();
const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return inMemory.get(key) ?? null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    inMemory.set(key, value);
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // The same tutorial open in another tab moves this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key?.startsWith('vexil.tutorial.')) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Reads stored progress; anything unreadable (another version's, edited by hand) starts afresh. */
export function parseProgress(stored: string | null): TutorialProgress {
  if (!stored) return INITIAL_PROGRESS;
  try {
    const value = JSON.parse(stored) as Partial<Record<keyof TutorialProgress, unknown>>;
    const featureKey = typeof value.featureKey === 'string' && value.featureKey ? value.featureKey : null;
    const language = isTutorialLanguage(value.language) ? value.language : DEFAULT_TUTORIAL_LANGUAGE;
    // Steps 2 and 3 need a feature.
    const step = featureKey && (value.step === 2 || value.step === 3) ? value.step : 1;
    return { step, language, featureKey };
  } catch {
    return INITIAL_PROGRESS;
  }
}

/** The progress of `owner`, and ways to change it; every tab showing it follows. */
export function useTutorialProgress(owner: ProgressOwner) {
  const key = progressKey(owner);
  // The stored text is the snapshot (a string compares by value), parsed on each render.
  const stored = useSyncExternalStore(subscribe, () => read(key));
  const progress = parseProgress(stored);

  const update = useCallback(
    (change: Partial<TutorialProgress>) => {
      const next = { ...parseProgress(read(key)), ...change };
      write(key, JSON.stringify(next));
    },
    [key],
  );
  const reset = useCallback(() => write(key, JSON.stringify(INITIAL_PROGRESS)), [key]);

  return { progress, update, reset };
}
