import { afterEach, describe, expect, it } from 'vitest';
import prePaintScript from '../../public/color-scheme.js?raw';
import { COLOR_SCHEME_STORAGE_KEY, colorSchemeManager } from './color-scheme';

const defaultMatchMedia = window.matchMedia;

function systemPrefers(scheme: 'light' | 'dark') {
  window.matchMedia = (query: string) => ({
    ...defaultMatchMedia(query),
    matches: query === '(prefers-color-scheme: dark)' && scheme === 'dark',
  });
}

/** Runs public/color-scheme.js as the page's head does, then reads the scheme the page starts in. */
function firstPaintScheme(): string | null {
  document.documentElement.removeAttribute('data-mantine-color-scheme');
  new Function(prePaintScript)();
  return document.documentElement.getAttribute('data-mantine-color-scheme');
}

describe('the colour scheme before the first paint', () => {
  afterEach(() => {
    window.matchMedia = defaultMatchMedia;
    document.documentElement.removeAttribute('data-mantine-color-scheme');
  });

  it('follows the system until the user chooses', () => {
    systemPrefers('dark');
    expect(firstPaintScheme()).toBe('dark');
    systemPrefers('light');
    expect(firstPaintScheme()).toBe('light');
  });

  it('is the scheme the user chose in the app, whatever the system prefers', () => {
    systemPrefers('dark');
    colorSchemeManager.set('light');
    expect(firstPaintScheme()).toBe('light');
    systemPrefers('light');
    colorSchemeManager.set('dark');
    expect(firstPaintScheme()).toBe('dark');
  });

  it('follows the system again once the user chose System', () => {
    systemPrefers('dark');
    colorSchemeManager.set('auto');
    expect(firstPaintScheme()).toBe('dark');
  });

  it('ignores a stored value the app would not have written', () => {
    systemPrefers('dark');
    localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'purple');
    expect(firstPaintScheme()).toBe('dark');
  });
});
