import { jobRow } from './job-row.fixture';
import { toCompact, toJobView } from './job-view';

describe('toJobView', () => {
  it('answers every field, empty where nothing produces it, with progress and the company radius', () => {
    const v = toJobView(jobRow());
    expect(v).toMatchObject({
      id: 'J1',
      worker: '',
      receiverUid: '',
      uidSecondary: '',
      dispatcherName: '',
      placeName: '',
      radius: 100,
      scheduledStart: 0,
      scheduledEnd: 0,
      tsScheduled: 0,
      progress: 'scheduled',
      fileNumber: '',
      carryOver: 0,
      extra_number_1_key: '',
      extra_number_1_val: 0,
      extra_text_4_val: '',
    });
    expect(v).not.toHaveProperty('status');
    expect(Object.keys(v)).toHaveLength(84);
  });

  it('scheduledStart/End are the day and window in the company zone (ms)', () => {
    // 2026-07-01 08:30 and 10:00 in Ljubljana (UTC+2)
    const v = toJobView(jobRow({ day: 20260701, windowStart: 830, windowEnd: 1000 }));
    expect(v.scheduledStart).toBe(Date.UTC(2026, 6, 1, 6, 30));
    expect(v.scheduledEnd).toBe(Date.UTC(2026, 6, 1, 8, 0));
    expect(v.tsScheduled).toBe(v.scheduledStart);
  });

  it('assignee, place radius, archived flag, template ids and extras', () => {
    const v = toJobView(
      jobRow({
        isTemplate: true,
        archived: true,
        workerId: 'W1',
        workerUsername: 'ana@x.test',
        workerName: 'Ana',
        workerEmail: 'ana@x.test',
        workerPhone: '123',
        placeRadius: 250,
        uidSecondary: 'ext',
        extra: { extra_text_2_val: 'hi', extra_number_3_val: 2.5 },
        tsDoneFailed: 5,
      }),
    );
    expect(v).toMatchObject({
      id: 'tpl-J1',
      status: 'archived',
      worker: 'ana@x.test',
      receiverUid: 'W1',
      assigneeUsername: 'ana@x.test',
      assigneeName: 'Ana',
      workerPhone: '123',
      radius: 250,
      uidSecondary: 'ext',
      extra_text_2_val: 'hi',
      extra_number_3_val: 2.5,
      progress: 'failed',
    });
  });

  it("linkedZones is the row's derived list of covering zones, as read", () => {
    expect(toJobView(jobRow()).linkedZones).toBe('');
    expect(toJobView(jobRow({ linkedZones: 'Z1,Z2' })).linkedZones).toBe('Z1,Z2');
  });
});

describe('toCompact', () => {
  it('leaves out empty, zero, null and false fields, and the named ones; keeps the id', () => {
    const c = toCompact(toJobView(jobRow({ workerId: 'W1', workerUsername: 'ana', workerName: 'Ana', priority: 3, id: 'J7' })));
    expect(c).toEqual({
      id: 'J7',
      destinationName: 'Boiler',
      priority: 3,
      worker: 'ana',
      receiverUid: 'W1',
      radius: 100,
      tsCreated: 1000,
      tsSaved: 2000,
      createdBy: 'M1',
      createdVia: 'api',
      createdAt: 2000,
      version: 1,
      progress: 'scheduled',
    });
  });
});
