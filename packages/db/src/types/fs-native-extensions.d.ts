/** The part of fs-native-extensions' API this package uses (the package ships no types). */
declare module 'fs-native-extensions' {
  /** Requests an exclusive lock (or a shared one) on an open file; false when another holder has it. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}
