/** The part of fs-native-extensions (no types of its own) that db/data-dir-lock.ts uses. */
declare module 'fs-native-extensions' {
  /** An exclusive (or `shared`) lock on the open file `fd`: false when another holds it. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
}
