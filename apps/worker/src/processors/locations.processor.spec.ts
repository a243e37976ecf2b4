import { FixConsumerRegistry, FixesTask, LocationRetentionService } from '@app/locations';
import { TaskProducer } from '@app/core';
import { Job } from 'bullmq';
import { LocationsProcessor } from './locations.processor';

describe('LocationsProcessor', () => {
  const task: FixesTask = { companyId: 'C', memberId: 'M', fromTs: 1, toTs: 2 };
  const job = { name: 'fixes', data: task } as unknown as Job<FixesTask, unknown, 'fixes'>;

  it('runs every registered consumer with the task, at once (none waits for another)', async () => {
    const registry = new FixConsumerRegistry();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    registry.register({ name: 'geofence', onFixes: async (t) => (await gate, void seen.push(`geofence:${t.fromTs}-${t.toTs}`)) });
    registry.register({ name: 'alerts', onFixes: async (t) => (seen.push(`alerts:${t.memberId}`), release()) });
    const processor = new LocationsProcessor(registry, {} as LocationRetentionService, {} as TaskProducer);
    await processor.process(job);
    expect(seen).toEqual(['alerts:M', 'geofence:1-2']);
  });

  it('fails the task when a consumer throws (BullMQ retries it), once the others have finished', async () => {
    const registry = new FixConsumerRegistry();
    const seen: string[] = [];
    registry.register({ name: 'a', onFixes: () => Promise.reject(new Error('db down')) });
    registry.register({ name: 'b', onFixes: async () => (await new Promise((r) => setTimeout(r, 20)), void seen.push('b')) });
    const processor = new LocationsProcessor(registry, {} as LocationRetentionService, {} as TaskProducer);
    await expect(processor.process(job)).rejects.toThrow('db down');
    expect(seen).toEqual(['b']);
  });
});
