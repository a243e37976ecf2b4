import { OutboxEventInput, OutboxService } from '@app/core';
import { JobView } from '@app/jobs';
import { DataSource, EntityManager } from 'typeorm';
import { createCompany, startApi, TestApi } from '../support/api';

/** The outbox writes in the caller's transaction: an event exists iff the change commits. */
describe('outbox', () => {
  let api: TestApi;
  let db: DataSource;
  let outbox: { append: (m: EntityManager, e: OutboxEventInput) => Promise<{ id: string }> };
  let companyId: string;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    const service = api.app.get(OutboxService);
    // one event through the one writer the services use
    outbox = { append: async (m, e) => ({ id: (await service.appendMany(m, [e]))[0] }) };
    companyId = (await createCompany(api)).companyUid;
  });
  afterAll(() => api.close());

  const find = async (id: string) => db.query(`SELECT * FROM outbox_events WHERE id = $1`, [id]);

  it('an event appended in a transaction that commits is there, with its payload as sent', async () => {
    const event = await db.transaction((m) =>
      outbox.append(m, {
        companyId,
        eventKey: 'job_created',
        action: 'jobcreated',
        formId: 'JOB1',
        // a job event's payload cut short: the outbox stores `data` as given
        data: [{ id: 'JOB1', destinationName: 'Café' } as JobView],
      }),
    );
    expect(event.id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    const [row] = await find(event.id);
    expect(row).toMatchObject({ company_id: companyId, event_key: 'job_created', action: 'jobcreated', form_id: 'JOB1' });
    expect(JSON.parse(row.payload)).toEqual([{ id: 'JOB1', destinationName: 'Café' }]);
    expect(Math.abs(Number(row.created_at) - Date.now())).toBeLessThan(60_000);
  });

  it('an event appended in a transaction that rolls back is not there', async () => {
    let id = '';
    await expect(
      db.transaction(async (m) => {
        id = (
          await outbox.append(m, {
            companyId,
            eventKey: 'job_updated',
            action: 'jobupdated',
            formId: 'JOB2',
            data: [{ id: 'JOB2' } as JobView],
          })
        ).id;
        expect(await m.query(`SELECT 1 FROM outbox_events WHERE id = $1`, [id])).toHaveLength(1);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(id).not.toBe('');
    expect(await find(id)).toEqual([]);
  });

  it('refuses to write outside a transaction', async () => {
    await expect(
      outbox.append(db.manager, { companyId, eventKey: 'job_updated', action: 'jobupdated', formId: 'X', data: [{ id: 'X' } as JobView] }),
    ).rejects.toThrow(/inside a transaction/);
  });
});
