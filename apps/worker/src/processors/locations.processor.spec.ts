import { FixConsumerRegistry, FixesTask, LocationRetentionService } from '@app/locations';
import { TaskProducer } from '@app/core';
import { Job } from 'bullmq';
import { LocationsProcessor } from './locations.processor';

describe('LocationsProcessor', () => {
  const task: FixesTask = { companyId: 'C', memberId: 'M', fromTs: 1, toTs: 2 };
  const job = { name: 'fixes', data: task } as unknown as Job<FixesTask, unknown, 'fixes'>;

  it('runs every registered consumer in registration order with the task', async () => {
    const registry = new FixConsumerRegistry();
    const seen: string[] = [];
    registry.register({ name: 'tracks', onFixes: async (t) => void seen.push(`tracks:${t.memberId}`) });
    registry.register({ name: 'geofence', onFixes: async (t) => void seen.push(`geofence:${t.fromTs}-${t.toTs}`) });
    const processor = new LocationsProcessor(registry, {} as LocationRetentionService, {} as TaskProducer);
    await processor.process(job);
    expect(seen).toEqual(['tracks:M', 'geofence:1-2']);
  });

  it('fails the task when a consumer throws (BullMQ retries it), skipping the later ones', async () => {
    const registry = new FixConsumerRegistry();
    const seen: string[] = [];
    registry.register({ name: 'a', onFixes: () => Promise.reject(new Error('db down')) });
    registry.register({ name: 'b', onFixes: async () => void seen.push('b') });
    const processor = new LocationsProcessor(registry, {} as LocationRetentionService, {} as TaskProducer);
    await expect(processor.process(job)).rejects.toThrow('db down');
    expect(seen).toEqual([]);
  });
});
