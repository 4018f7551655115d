/*
 * The environment the dashboard works in (docs/product.md §2 "Top navigation"). The address decides while it
 * names one; otherwise it is the one the user last worked in. That is remembered in this browser per
 * organisation and user (localStorage), so it survives Home, a reload, and signing out and in again,
 * and changes only when the user opens another environment. Where one must be picked without a
 * remembered one, a non-production environment is preferred: arriving in production by default
 * makes an unintended change the most costly.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { isProductionEnvironment, type ProjectSummary } from '@vexil/core';
import { useSession } from './session';

type EnvironmentSummary = ProjectSummary['environments'][number];

export type EnvironmentChoice = { project: ProjectSummary; environment: EnvironmentSummary };

/** What the browser remembers for one user, by id (a name can change, an id never does). */
export type RememberedEnvironments = {
  /** The environment last worked in. */
  current: string | null;
  /** For each project id, the environment of that project last worked in. */
  byProject: Readonly<Record<string, string>>;
};

export const NOTHING_REMEMBERED: RememberedEnvironments = { current: null, byProject: {} };

/** Whose choice it is: one user of one organisation, as several may share a browser. */
export type EnvironmentOwner = { organisationId: string; userId: string };

export function rememberedEnvironmentsKey({ organisationId, userId }: EnvironmentOwner): string {
  return `vexil.environment.${organisationId}.${userId}`;
}

/*
 * Where localStorage is refused (some private modes throw on access), the choice is kept for the
 * life of the page instead.
 */
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
  // Another tab of the same user choosing an environment is the user changing it too.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The remembered choice in `raw`; anything unreadable (an older or hand-edited value) is nothing. */
export function parseRememberedEnvironments(raw: string | null): RememberedEnvironments {
  if (raw === null) return NOTHING_REMEMBERED;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return NOTHING_REMEMBERED;
  }
  if (!isRecord(value)) return NOTHING_REMEMBERED;
  const current = typeof value.current === 'string' ? value.current : null;
  const byProject = isRecord(value.byProject)
    ? Object.fromEntries(
        Object.entries(value.byProject).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      )
    : {};
  return { current, byProject };
}

export function readRememberedEnvironments(owner: EnvironmentOwner): RememberedEnvironments {
  return parseRememberedEnvironments(read(rememberedEnvironmentsKey(owner)));
}

/** Records that `owner` works in `environmentId` of `projectId`. */
export function rememberEnvironment(owner: EnvironmentOwner, projectId: string, environmentId: string): void {
  const before = readRememberedEnvironments(owner);
  if (before.current === environmentId && before.byProject[projectId] === environmentId) return;
  const after: RememberedEnvironments = {
    current: environmentId,
    byProject: { ...before.byProject, [projectId]: environmentId },
  };
  write(rememberedEnvironmentsKey(owner), JSON.stringify(after));
}

/**
 * The environment to open in `project` when the address names none: the one last worked in there,
 * else its first non-production one, else its first. Undefined for a project without environments.
 */
export function environmentToOpen(
  project: ProjectSummary,
  remembered: RememberedEnvironments,
): EnvironmentSummary | undefined {
  const { environments } = project;
  const lastUsedId = remembered.byProject[project.id];
  return (
    environments.find((environment) => environment.id === lastUsedId) ??
    environments.find((environment) => !isProductionEnvironment(environment)) ??
    environments[0]
  );
}

/**
 * The current environment when the address names none: the one last worked in, while it still
 * exists; else, in the first project that has a non-production environment (or, failing that, any
 * environment), the one {@link environmentToOpen} picks. Null without any environment.
 */
export function chooseCurrentEnvironment(
  projects: readonly ProjectSummary[],
  remembered: RememberedEnvironments,
): EnvironmentChoice | null {
  for (const project of projects) {
    const environment = project.environments.find((e) => e.id === remembered.current);
    if (environment) return { project, environment };
  }
  const project =
    projects.find((p) => p.environments.some((e) => !isProductionEnvironment(e))) ??
    projects.find((p) => p.environments.length > 0);
  const environment = project && environmentToOpen(project, remembered);
  return project && environment ? { project, environment } : null;
}

/**
 * The signed-in user's remembered environments, kept up to date, and how to record a new one. Only
 * inside the authenticated area.
 */
export function useRememberedEnvironments(): {
  remembered: RememberedEnvironments;
  remember: (projectId: string, environmentId: string) => void;
} {
  const { organisation, principalUser } = useSession();
  const organisationId = organisation.id;
  const userId = principalUser.id;
  const key = rememberedEnvironmentsKey({ organisationId, userId });
  const raw = useSyncExternalStore(
    subscribe,
    () => read(key),
    () => null,
  );
  const remembered = useMemo(() => parseRememberedEnvironments(raw), [raw]);
  const remember = useCallback(
    (projectId: string, environmentId: string) =>
      rememberEnvironment({ organisationId, userId }, projectId, environmentId),
    [organisationId, userId],
  );
  return { remembered, remember };
}
