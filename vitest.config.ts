import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests start host processes and SQLite databases; two cores run two files at a time.
    maxWorkers: 2,
    // Codex runs each command in a login shell, which runs the machine's shell profile. A profile
    // with pyenv rehashes under a lock file; a test that stops a command mid-rehash leaves the lock,
    // and every later command would wait 60 s for it. Tests wait one second at most.
    env: { PYENV_REHASH_TIMEOUT: '1' },
  },
});
