/**
 * The CPU pool's thread entry: runs a pure function by name. Loaded by every pool thread from the
 * compiled `dist` JS, so it imports pure modules only (never `@app/core`'s index: no Nest, TypeORM
 * or connections in the threads). Add a domain's CPU tasks to the table; the compiler checks it
 * against {@link CpuTasks}.
 */
import { setPriority } from 'node:os';
import { isWorkerThread, workerData } from 'piscina';
import { CpuTaskName, CpuTasks, spin } from '@app/core/pure';
import { assignTask, clusterTask, solveTourTask } from '@app/dispatch/pure';

/** What the pool hands each thread (piscina's `workerData`). */
export interface CpuThreadData {
  /** the nice value the thread gives itself (`CPU_POOL_NICE`) */
  nice: number;
}

/**
 * Lowers the calling thread's scheduling priority to `nice`. On Linux `setpriority(PRIO_PROCESS, 0)`
 * — what `os.setPriority(n)` calls — acts on the calling thread only (setpriority(2), "BUGS": the nice
 * value is per thread there), so the worker's event loop keeps its priority. Where the OS refuses
 * (raising needs privileges; lowering never does) the thread runs on unchanged.
 * @returns whether the priority was set
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    setPriority(nice);
    return true;
  } catch {
    return false;
  }
}

if (isWorkerThread) lowerThreadPriority((workerData as CpuThreadData | undefined)?.nice ?? 0);

type CpuFunctions = { [N in CpuTaskName]: (input: CpuTasks[N]['input']) => CpuTasks[N]['output'] };

export const CPU_FUNCTIONS: CpuFunctions = {
  'test.spin': spin,
  'dispatch.solveTour': solveTourTask,
  'dispatch.cluster': clusterTask,
  'dispatch.assign': assignTask,
};

/** One call of the pool: `{name, input}` → the named function's output. @throws Error for an unknown name. */
export default function runCpuTask({ name, input }: { name: string; input: unknown }): unknown {
  const fn = (CPU_FUNCTIONS as Record<string, ((input: unknown) => unknown) | undefined>)[name];
  if (!fn) throw new Error(`unknown CPU task ${name}`);
  return fn(input);
}
