import { cpuPoolThreads } from './cpu-pool';
import runCpuTask from './cpu-functions';

describe('cpuPoolThreads', () => {
  it('leaves one core to the event loop by default', () => {
    expect(cpuPoolThreads({ CPU_POOL_THREADS: 0 }, 8)).toBe(7);
    expect(cpuPoolThreads({ CPU_POOL_THREADS: 0 }, 2)).toBe(1);
    expect(cpuPoolThreads({ CPU_POOL_THREADS: 0 }, 1)).toBe(1);
  });
  it('takes the setting when given', () => expect(cpuPoolThreads({ CPU_POOL_THREADS: 3 }, 8)).toBe(3));
});

describe('runCpuTask', () => {
  it('runs a function by name', () => expect(runCpuTask({ name: 'test.spin', input: { ms: 1 } })).toMatchObject({ threadId: 0 }));
  it('refuses an unknown name', () => expect(() => runCpuTask({ name: 'nope', input: {} })).toThrow('unknown CPU task nope'));
});
