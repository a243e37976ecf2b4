/**
 * Three tiers: unit specs beside the code (pure logic); integration specs beside the repositories and
 * read models (`*.int-spec.ts`, real PostgreSQL, no HTTP); e2e specs in test/ against real PostgreSQL,
 * Redis and HTTP.
 */
const moduleNameMapper = {
  '^@test/(.*)$': '<rootDir>/test/$1',
  '^@app/core(|/.*)$': '<rootDir>/libs/core/src$1',
  '^@app/members(|/.*)$': '<rootDir>/libs/members/src$1',
  '^@app/database(|/.*)$': '<rootDir>/libs/database/src$1',
  '^@app/jobs(|/.*)$': '<rootDir>/libs/jobs/src$1',
  '^@app/places(|/.*)$': '<rootDir>/libs/places/src$1',
  '^@app/locations(|/.*)$': '<rootDir>/libs/locations/src$1',
  '^@app/dispatch(|/.*)$': '<rootDir>/libs/dispatch/src$1',
  '^@app/webhooks(|/.*)$': '<rootDir>/libs/webhooks/src$1',
  '^@app/zones(|/.*)$': '<rootDir>/libs/zones/src$1',
  '^@app/alerts(|/.*)$': '<rootDir>/libs/alerts/src$1',
  '^@app/reports(|/.*)$': '<rootDir>/libs/reports/src$1',
  '^@app/live(|/.*)$': '<rootDir>/libs/live/src$1',
};
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };
const common = { rootDir: __dirname, moduleFileExtensions: ['ts', 'js', 'json'], testEnvironment: 'node', transform, moduleNameMapper };

module.exports = {
  // a global option (jest ignores it inside a project): e2e tests boot processes on a 2-core machine
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.ts'] },
    // repositories and read models against the run's own PostgreSQL (test/support/integration.ts)
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/libs/**/*.int-spec.ts'], setupFiles: ['<rootDir>/test/support/env.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], setupFiles: ['<rootDir>/test/support/env.ts'] },
  ],
};
