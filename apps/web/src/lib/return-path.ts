/**
 * docs/product.md §4 "Session": the page a signed-out visitor asked for is remembered for the tab (sessionStorage)
 * and restored after sign-in.
 */
const STORAGE_KEY = 'vexil.returnPath';

/** Only paths of this app, and never the sign-in and sign-out pages themselves. */
function isReturnablePath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return false;
  const pathname = path.split(/[?#]/)[0] ?? '';
  return !/^\/(login|logout)(\/|$)/.test(pathname) && !/^\/[^/]+\/login\/?$/.test(pathname);
}

export function rememberReturnPath(path: string): void {
  if (!isReturnablePath(path)) return;
  try {
    sessionStorage.setItem(STORAGE_KEY, path);
  } catch {
    // Storage can be unavailable (private modes, quotas); the user then lands on the home page.
  }
}

/** Returns the remembered path once and forgets it. */
export function takeReturnPath(): string | null {
  try {
    const path = sessionStorage.getItem(STORAGE_KEY);
    sessionStorage.removeItem(STORAGE_KEY);
    return path !== null && isReturnablePath(path) ? path : null;
  } catch {
    return null;
  }
}
