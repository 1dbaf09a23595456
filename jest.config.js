/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
  },
  collectCoverageFrom: ['lib/**/*.ts'],
  coverageReporters: ['text-summary', 'lcov'],
  coverageThreshold: { global: { branches: 90 } },
  testTimeout: 30000,
};
