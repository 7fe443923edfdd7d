/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // Workspace packages resolve to their TypeScript sources, never to a build (docs/adr/0184).
  testEnvironmentOptions: { customExportConditions: ['@loanmatch/source', 'node', 'node-addons'] },
  transform: { '^.+\\.[tj]s$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  // The load test runs on its own, `pnpm test:load` (docs/testing.md).
  testMatch: ['<rootDir>/{apps,packages,tests}/**/*.test.ts', '!**/tests/load/**'],
  testPathIgnorePatterns: ['/node_modules/'],
  // Nothing is loaded from a package's build output (`pnpm build`).
  modulePathIgnorePatterns: ['<rootDir>/(apps|packages)/[^/]+/dist/'],
  testTimeout: 30000,
  // Names the run, and removes what its tests left behind (tests/support/run.ts).
  globalSetup: '<rootDir>/tests/support/run-setup.ts',
  globalTeardown: '<rootDir>/tests/support/run-teardown.ts',
  // Many suites wait on a database or a started process rather than on the CPU, so two workers on the
  // 2-core CI machine overlap that waiting (jest's default there is one worker).
  maxWorkers: 2,
  // A worker's heap grows with every file it runs (2.5 GB after 38 files, measured); past 1 GB it is
  // replaced before its next file, so that no worker is that large when the run ends and each one exits
  // in time instead of being killed (docs/adr/0003).
  workerIdleMemoryLimit: '1GB',
};
