import { Queue } from 'bullmq';
import { ALL_QUEUES, DEFAULT_TASK_OPTIONS, QueueName, TASK_OPTIONS, taskOptions } from './queues';
import { TaskProducer } from './task-producer.service';

/** A stand-in for a BullMQ queue that records what is added (the option merging is what is tested here). */
function recordingQueue(name: string) {
  const added: Array<{ name: string; data: unknown; opts: unknown }> = [];
  const queue = {
    name,
    on: () => queue,
    add: async (n: string, data: unknown, opts: unknown) => void added.push({ name: n, data, opts }),
    addBulk: async (tasks: Array<{ name: string; data: unknown; opts: unknown }>) => void added.push(...tasks),
  };
  return { queue: queue as unknown as Queue, added };
}

describe('queue task options', () => {
  it('every queue of ALL_QUEUES has its options', () => {
    expect(Object.keys(TASK_OPTIONS).sort()).toEqual([...ALL_QUEUES].sort());
    for (const name of ALL_QUEUES) expect(TASK_OPTIONS[name].defaults).toBeDefined();
  });

  it("a task gets its queue's defaults, then its own override", () => {
    expect(taskOptions(QueueName.Maintenance, 'prune-invitations')).toEqual(DEFAULT_TASK_OPTIONS);
    expect(taskOptions(QueueName.WebhookDelivery, 'drain')).toEqual({
      ...DEFAULT_TASK_OPTIONS,
      attempts: 1,
      removeOnComplete: true,
      removeOnFail: true,
    });
    expect(taskOptions(QueueName.WebhookDelivery, 'prune')).toEqual(DEFAULT_TASK_OPTIONS);
  });
});

describe('TaskProducer', () => {
  it('holds every queue it is given and adds each task with its options, the caller’s last', async () => {
    const queues = ALL_QUEUES.map((name) => recordingQueue(name));
    const producer = new TaskProducer(queues.map((q) => q.queue));
    expect(producer.all().map((q) => q.name)).toEqual(ALL_QUEUES);
    await producer.add(QueueName.WebhookDelivery, 'wake', { eventIds: ['msg_1'] });
    await producer.addBulk(QueueName.WebhookDelivery, [
      { name: 'drain', data: { endpointId: 'E1' }, opts: { jobId: 'drain-E1-5', delay: 5 } },
    ]);
    const added = queues.find((q) => q.queue.name === QueueName.WebhookDelivery)!.added;
    expect(added).toEqual([
      { name: 'wake', data: { eventIds: ['msg_1'] }, opts: taskOptions(QueueName.WebhookDelivery, 'wake') },
      {
        name: 'drain',
        data: { endpointId: 'E1' },
        opts: { ...taskOptions(QueueName.WebhookDelivery, 'drain'), jobId: 'drain-E1-5', delay: 5 },
      },
    ]);
  });

  it('names a queue it was not given', () => {
    expect(() => new TaskProducer([]).queue(QueueName.Reports)).toThrow(/reports is not registered/);
  });
});
