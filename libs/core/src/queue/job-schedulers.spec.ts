import { upsertJobSchedulers } from './job-schedulers';

describe('upsertJobSchedulers', () => {
  it('upserts each schedule in turn, logs a failure and still tries the rest, and never rejects', async () => {
    const calls: string[] = [];
    const queue = {
      name: 'maintenance',
      upsertJobScheduler: jest.fn(async (id: string) => {
        calls.push(id);
        if (id === 'b') throw new Error('Connection is closed.');
        return undefined as never;
      }),
    };
    const logger = { warn: jest.fn() };
    await expect(
      upsertJobSchedulers(
        queue,
        [
          { id: 'a', repeat: { every: 1000 }, task: { name: 'a', data: {} } },
          { id: 'b', repeat: { every: 2000 }, task: { name: 'b', data: {} } },
          { id: 'c', repeat: { every: 3000 }, task: { name: 'c', data: { x: 1 } } },
        ],
        logger,
      ),
    ).resolves.toBeUndefined();
    expect(calls).toEqual(['a', 'b', 'c']);
    expect(queue.upsertJobScheduler).toHaveBeenCalledWith('c', { every: 3000 }, { name: 'c', data: { x: 1 } });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith('could not schedule maintenance b: Connection is closed.');
  });
});
