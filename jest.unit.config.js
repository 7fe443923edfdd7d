/**
 * `pnpm test:unit`, the fast loop: the packages' tests that open no database or Redis and start no process. The
 * package tests that do (the repositories, and the domain and dispatcher suites run on real storage) run
 * with everything else in `pnpm test`.
 */
const base = require('./jest.config');

const OPENS_A_DATABASE = [
  '<rootDir>/packages/db/',
  'client/test/real-service',
  'domain/test/(concurrent-reads|consents|key-cache|one-statement-writes|personal-data|sealed-fields|tiers)',
  'http/test/(tier-usage|webhooks/dispatcher)',
];

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testMatch: ['<rootDir>/packages/**/*.test.ts'],
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, ...OPENS_A_DATABASE],
};
