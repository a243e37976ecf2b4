import { FixConsumerRegistry, FixesTask, LocationRetentionService } from '@app/locations';
import { AppConfig, TaskProducer } from '@app/core';
import { Job } from 'bullmq';
import { LocationsProcessor } from './locations.processor';

describe('LocationsProcessor', () => {
  const task: FixesTask = { companyId: 'C', memberId: 'M', fromTs: 1, toTs: 2 };
  const job = { name: 'fixes', data: task } as unknown as Job<FixesTask, unknown, 'fixes'>;
  const jobOf = (data: FixesTask) => ({ name: 'fixes', data }) as unknown as Job<FixesTask, unknown, 'fixes'>;
  const config = { LOCATIONS_CONCURRENCY: 1, LOCATIONS_BATCH_SIZE: 10 } as AppConfig;

  it('runs every registered consumer with the task, at once (none waits for another)', async () => {
    const registry = new FixConsumerRegistry();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    registry.register({ name: 'geofence', onFixes: async (t) => (await gate, void seen.push(`geofence:${t.fromTs}-${t.toTs}`)) });
    registry.register({ name: 'alerts', onFixes: async (t) => (seen.push(`alerts:${t.memberId}`), release()) });
    const processor = new LocationsProcessor(registry, {} as LocationRetentionService, {} as TaskProducer, config);
    await processor.process(job);
    expect(seen).toEqual(['alerts:M', 'geofence:1-2']);
  });

  it('fails the task when a consumer throws (BullMQ retries it), once the others have finished', async () => {
    const registry = new FixConsumerRegistry();
    const seen: string[] = [];
    registry.register({ name: 'a', onFixes: () => Promise.reject(new Error('db down')) });
    registry.register({ name: 'b', onFixes: async () => (await new Promise((r) => setTimeout(r, 20)), void seen.push('b')) });
    const processor = new LocationsProcessor(registry, {} as LocationRetentionService, {} as TaskProducer, config);
    await expect(processor.process(job)).rejects.toThrow('db down');
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
    const processor = new LocationsProcessor(registry, {} as LocationRetentionService, {} as TaskProducer, config);
    const first = processor.process(jobOf({ ...task, memberId: 'A' }));
    const later = ['B', 'C', 'D'].map((memberId) => processor.process(jobOf({ ...task, memberId })));
    release();
    await Promise.all([first, ...later]);
    expect(passes).toEqual([['A'], ['B', 'C', 'D']]);
  });
});
