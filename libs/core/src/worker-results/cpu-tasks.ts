import { threadId } from 'node:worker_threads';

/**
 * Pure functions the worker's CPU pool runs by name, with their input and output (structured-clone
 * data only). A domain lib adds its own by augmenting this interface
 * (`declare module '@app/core' { interface CpuTasks { … } }`) and listing the function in the worker's
 * CPU entry (`apps/worker/src/cpu/cpu-functions.ts`), whose table the compiler checks against it.
 * This file is loaded in every pool thread: it must stay free of Nest, TypeORM and connections.
 */
export interface CpuTasks {
  /** Test only: busy-loops `ms`. */
  'test.spin': { input: { ms: number }; output: { spun: number; threadId: number } };
}
export type CpuTaskName = keyof CpuTasks & string;

/**
 * Keeps this thread's CPU busy for `ms` (a stand-in for route search in the tests).
 * @returns the ms actually spun and the thread's id (0 on the main thread).
 */
export function spin({ ms }: { ms: number }): { spun: number; threadId: number } {
  const start = Date.now();
  let x = 0;
  while (Date.now() - start < ms) x += Math.sqrt(x + 1);
  return { spun: Date.now() - start + (x < 0 ? 1 : 0), threadId };
}
