/**
 * `pnpm test:unit`, the fast loop: the packages' tests that open no database and start no process. The
 * package tests that do (the repositories, and the domain and dispatcher suites run on real storage) run
 * with everything else in `pnpm test`.
 */
const base = require('./jest.config');

const OPENS_A_DATABASE = [
  '<rootDir>/packages/db/',
  'client/test/real-service',
  'domain/test/(concurrent-reads|generic-plans|key-cache|one-statement-writes|personal-data|tiers)',
  'http/test/webhooks/dispatcher',
];

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testMatch: ['<rootDir>/packages/**/*.test.ts'],
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, ...OPENS_A_DATABASE],
};
