import { AppConfig } from '@app/core';
import { FixConsumerRegistry, FixesTask } from './fix-consumers.registry';
import { FixPasses } from './fix-passes.service';

describe('FixPasses (the Locations queue\'s fixes tasks)', () => {
  const task: FixesTask = { companyId: 'C', memberId: 'M', fromTs: 1, toTs: 2 };
  const config = { LOCATIONS_CONCURRENCY: 1, LOCATIONS_BATCH_SIZE: 10 } as AppConfig;

  it('runs every registered consumer with the task, at once (none waits for another)', async () => {
    const registry = new FixConsumerRegistry();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    registry.register({ name: 'geofence', onFixes: async (t) => (await gate, void seen.push(`geofence:${t.fromTs}-${t.toTs}`)) });
    registry.register({ name: 'alerts', onFixes: async (t) => (seen.push(`alerts:${t.memberId}`), release()) });
    const fixPasses = new FixPasses(registry, config);
    expect(await fixPasses.run(task)).toBe(2);
    expect(seen).toEqual(['alerts:M', 'geofence:1-2']);
  });

  it('fails the task when a consumer throws (BullMQ retries it), once the others have finished', async () => {
    const registry = new FixConsumerRegistry();
    const seen: string[] = [];
    registry.register({ name: 'a', onFixes: () => Promise.reject(new Error('db down')) });
    registry.register({ name: 'b', onFixes: async () => (await new Promise((r) => setTimeout(r, 20)), void seen.push('b')) });
    const fixPasses = new FixPasses(registry, config);
    await expect(fixPasses.run(task)).rejects.toThrow('db down');
    expect(seen).toEqual(['b']);
  });

  it('hands a batch consumer the tasks that arrived while its pass was busy, in one call', async () => {
    const registry = new FixConsumerRegistry();
    const passes: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    registry.register({
      name: 'geofence',
      onFixes: () => Promise.reject(new Error('not called: the batch method is')),
      onFixesBatch: async (tasks) => {
        passes.push(tasks.map((t) => t.memberId));
        if (passes.length === 1) await gate;
      },
    });
    const fixPasses = new FixPasses(registry, config);
    const first = fixPasses.run({ ...task, memberId: 'A' });
    const later = ['B', 'C', 'D'].map((memberId) => fixPasses.run({ ...task, memberId }));
    release();
    await Promise.all([first, ...later]);
    expect(passes).toEqual([['A'], ['B', 'C', 'D']]);
  });
});
