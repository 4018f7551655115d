import { describe, expect, it } from 'vitest';
import { rememberReturnPath, takeReturnPath } from './return-path';

describe('return path', () => {
  it('gives back the remembered path once', () => {
    rememberReturnPath('/profile?tab=1#top');
    expect(takeReturnPath()).toBe('/profile?tab=1#top');
    expect(takeReturnPath()).toBeNull();
  });

  it('never remembers the sign-in pages or other sites', () => {
    for (const path of [
      '/login',
      '/login/abc',
      '/demo/login',
      '/logout',
      '//evil.example',
      'https://evil.example/',
    ]) {
      rememberReturnPath(path);
      expect(takeReturnPath()).toBeNull();
    }
  });
});
