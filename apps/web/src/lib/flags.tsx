import { createContext, useContext, type ReactNode } from 'react';
import type { UiFlag } from '@vexil/core';

export type UiFlags = Partial<Record<UiFlag, boolean>>;

const FlagsContext = createContext<UiFlags>({});

/**
 * Provides the UI flags: from the initial payload once signed in, from the public context before.
 * Outside a provider every flag reads as off.
 */
export function FlagsProvider({ flags, children }: { flags: UiFlags; children: ReactNode }) {
  return <FlagsContext.Provider value={flags}>{children}</FlagsContext.Provider>;
}

/** The one way the dashboard asks whether a UI flag (docs/product.md §9) is on; an unknown or absent flag is off. */
export function useFlag(name: UiFlag): boolean {
  return useContext(FlagsContext)[name] === true;
}

/** Renders its children only while the flag is on. */
export function FlagGate({
  flag,
  children,
  fallback = null,
}: {
  flag: UiFlag;
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return useFlag(flag) ? children : fallback;
}
