import { DomainError } from '../errors/domain-error';
import { loadConfig } from '../config/load-config';
import { spin } from './cpu-tasks';
import { profileSettings, storedError, unfinishedMessage, waitSliceMs, writeDecision } from './run-rules';

const config = { DISPATCH_TIMEOUT_MS: 30_000, REPORT_TIMEOUT_MS: 120_000, REPORT_MAX_RUN_MS: 600_000 };

describe('profileSettings', () => {
  it('dispatch writes by its answer deadline on the dispatch queue', () => {
    expect(profileSettings('dispatch', config)).toEqual({
      queue: 'dispatch',
      timeoutMs: 30_000,
      writeBy: 'answer',
      maxRunMs: null,
      what: 'dispatch',
      readPosition: false,
    });
  });
  it('a report writes until start + max run, on the reports queue', () => {
    expect(profileSettings('report', config)).toEqual({
      queue: 'reports',
      timeoutMs: 120_000,
      writeBy: 'start',
      maxRunMs: 600_000,
      what: 'report',
      readPosition: true,
    });
  });
});

describe('writeDecision', () => {
  it('writes while running and before write_by', () => expect(writeDecision('running', 1000, 999)).toBe('write'));
  it('expires at or past write_by', () => {
    expect(writeDecision('running', 1000, 1000)).toBe('expire');
    expect(writeDecision('running', 1000, 5000)).toBe('expire');
  });
  it('expires a run without a write deadline', () => expect(writeDecision('running', null, 0)).toBe('expire'));
  it.each(['queued', 'done', 'failed', 'expired'] as const)(
    'skips a run that is %s (expired by the api, or finished elsewhere)',
    (state) => {
      expect(writeDecision(state, 10_000, 0)).toBe('skip');
    },
  );
});

describe('storedError', () => {
  it('keeps a domain error as it was thrown', () => {
    expect(storedError(new DomainError('invalid', 'data.jobs: unknown ids a, b', 'data.jobs'), 'E1')).toEqual({
      message: 'data.jobs: unknown ids a, b',
      kind: 'invalid',
      field: 'data.jobs',
    });
    expect(storedError(new DomainError('not_found', 'job x not found'), 'E1')).toEqual({ message: 'job x not found', kind: 'not_found' });
  });
  it('hides anything else behind its error id', () => {
    expect(storedError(new TypeError('cannot read x of undefined at /srv/a.js:10'), 'E2')).toEqual({ message: 'internal error (id E2)' });
    expect(storedError('a string', 'E3')).toEqual({ message: 'internal error (id E3)' });
  });
});

describe('unfinishedMessage', () => {
  it('says nothing was changed for runs that write by their answer deadline', () => {
    expect(unfinishedMessage({ what: 'dispatch', writeBy: 'answer' }, 30_000)).toBe(
      'dispatch did not finish within 30 s; nothing was changed',
    );
    expect(unfinishedMessage({ what: 'dispatch', writeBy: 'answer' }, 1500)).toBe(
      'dispatch did not finish within 1.5 s; nothing was changed',
    );
  });
  it('says a start-relative run goes on', () => {
    expect(unfinishedMessage({ what: 'report', writeBy: 'start' }, 120_000)).toBe(
      'report did not finish within 120 s; it is still being made',
    );
  });
});

describe('waitSliceMs', () => {
  it('waits until the next re-read or the deadline, never negative', () => {
    expect(waitSliceMs(10_000, 0)).toBe(1000);
    expect(waitSliceMs(10_000, 9_700)).toBe(300);
    expect(waitSliceMs(10_000, 12_000)).toBe(0);
    expect(waitSliceMs(10_000, 0, 250)).toBe(250);
  });
});

describe('spin', () => {
  it('keeps the thread busy for the ms asked', () => {
    const out = spin({ ms: 30 });
    expect(out.spun).toBeGreaterThanOrEqual(30);
    expect(out.threadId).toBe(0);
  });
});

describe('worker-results settings', () => {
  it('have their defaults', () => {
    const c = loadConfig({}, { cache: false });
    expect([c.DISPATCH_TIMEOUT_MS, c.REPORT_TIMEOUT_MS, c.REPORT_MAX_RUN_MS, c.CPU_POOL_THREADS, c.WORKER_TEST_KINDS]).toEqual([
      30_000,
      120_000,
      600_000,
      0,
      false,
    ]);
  });
  it('refuse the test kinds in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', WORKER_TEST_KINDS: 'true' }, { cache: false })).toThrow(
      /WORKER_TEST_KINDS=true: not allowed/,
    );
    expect(loadConfig({ NODE_ENV: 'test', WORKER_TEST_KINDS: 'true' }, { cache: false }).WORKER_TEST_KINDS).toBe(true);
  });
});
