/**
 * Test environment, set before any module loads. `scripts/test.sh` picks a database and a queue
 * prefix of the run's own (so runs never share data) and migrates it; these are the fallbacks
 * for running jest directly after `npm run migrate` with the same DATABASE_URL.
 */
process.env.NODE_ENV = 'test';
// e2e specs in parallel jest workers (scripts/test.sh): each worker its own database, migrated
// beforehand, and its own queue prefix, so two suites never share rows or queues
if (process.env.TEST_PER_WORKER === '1' && process.env.JEST_WORKER_ID) {
  process.env.DATABASE_URL = `${process.env.DATABASE_URL}_w${process.env.JEST_WORKER_ID}`;
  process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX}-w${process.env.JEST_WORKER_ID}`;
}
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/fieldwork_test';
process.env.QUEUE_PREFIX ??= 'fieldwork-test';
process.env.PASSWORD_HASH_MEMORY_KIB ??= '1024';
process.env.PASSWORD_HASH_TIME_COST ??= '1';
process.env.LOG_LEVEL ??= 'error';
// tracks built 0.5 s after their fixes (production waits 10 s to gather a phone's calls into one rebuild)
process.env.TRACK_BUILD_DELAY_MS ??= '500';
// limits out of reach: only test/platform/rate-limit.e2e-spec.ts exercises them (with its own api processes)
process.env.RATE_LIMIT_PER_MINUTE ??= '1000000';
process.env.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE ??= '1000000';
