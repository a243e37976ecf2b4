import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { cpuPoolThreads } from './cpu.pool';
import runCpuTask, { lowerThreadPriority } from './cpu-functions';

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

describe('lowerThreadPriority', () => {
  it('answers false when the OS or Node refuses the value', () => expect(lowerThreadPriority(100)).toBe(false));

  // the assumption it rests on: on Linux a thread's setPriority(n) changes that thread only
  (process.platform === 'linux' ? it : it.skip)('lowers only the calling thread on Linux', async () => {
    const before = getPriority();
    const code = `const os = require('node:os'); os.setPriority(${Math.min(19, before + 5)}); require('node:worker_threads').parentPort.postMessage(os.getPriority());`;
    const inThread = await new Promise<number>((resolve, reject) => {
      const w = new Worker(code, { eval: true });
      w.once('message', (p: number) => void w.terminate().then(() => resolve(p)));
      w.once('error', reject);
    });
    expect(inThread).toBe(Math.min(19, before + 5));
    expect(getPriority()).toBe(before);
  });
});
