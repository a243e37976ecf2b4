import { DomainError, exists, invalid, notFound } from '@app/core';
import { plainToInstance } from 'class-transformer';
import { ConnectorJobBody, connectorBodyToJobFields, toConnectorError, toConnectorJob } from './connector-job';
import { toJobView } from './job-view';
import { jobRow } from './job-row.fixture';

describe('toConnectorJob (action job → connector job)', () => {
  it('maps every field of CONTRACTS.md "Connector /v1"', () => {
    const view = toJobView(
      jobRow({
        uidSecondary: 'ext-1',
        destinationName: 'Title',
        destinationText: 'Main St 1',
        textDispatcher: 'Notes',
        day: 20261224,
        windowStart: 830,
        windowEnd: 2400,
        placeUid: 'P1',
        priority: 4,
        workerId: 'W1',
        workerUsername: 'ana',
        workerEmail: 'ana@x.test',
        workerName: 'Ana',
        contactName: 'Eva',
        contactPhone: '+386',
        contactEmail: 'eva@x.test',
        tsAccepted: 5,
        createdAt: 111,
        tsSaved: 222,
      }),
    );
    expect(toConnectorJob(view)).toEqual({
      id: 'J1',
      externalId: 'ext-1',
      title: 'Title',
      address: 'Main St 1',
      notes: 'Notes',
      date: '2026-12-24',
      timeWindow: { start: '08:30', end: '24:00' },
      placeId: 'P1',
      priority: 4,
      progress: 'accepted',
      archived: false,
      createdAt: 111,
      updatedAt: 222,
      assignee: { id: 'W1', username: 'ana', email: 'ana@x.test', name: 'Ana' },
      contact: { name: 'Eva', phone: '+386', email: 'eva@x.test' },
    });
  });

  it('nulls: no day, no window, no place, no assignee, no externalId; archived flag', () => {
    const c = toConnectorJob(toJobView(jobRow({ archived: true, windowEnd: 1200 })));
    expect(c).toMatchObject({
      externalId: null,
      date: null,
      placeId: null,
      assignee: null,
      archived: true,
      timeWindow: { start: null, end: '12:00' },
    });
    expect(toConnectorJob(toJobView(jobRow())).timeWindow).toBeNull();
  });
});

describe('connectorBodyToJobFields (connector body → action fields)', () => {
  const body = (b: object) => plainToInstance(ConnectorJobBody, b);

  it('renames the sent fields only', () => {
    expect(
      connectorBodyToJobFields(
        body({
          externalId: 'e',
          title: 't',
          address: 'a',
          notes: 'n',
          date: '2026-12-24',
          assigneeUsername: 'ana',
          assigneeId: 'W1',
          priority: 2,
          placeId: 'P1',
          contact: { name: 'Eva', phone: '1', email: 'e@x.test' },
          timeWindow: { start: '08:30', end: '00:00' },
        }),
      ),
    ).toEqual({
      uidSecondary: 'e',
      destinationName: 't',
      destinationText: 'a',
      textDispatcher: 'n',
      day: 20261224,
      worker: 'ana',
      receiverUid: 'W1',
      priority: 2,
      placeUid: 'P1',
      contactName: 'Eva',
      contactPhone: '1',
      contactEmail: 'e@x.test',
      windowStart: 830,
      windowEnd: 0,
    });
    expect(connectorBodyToJobFields(body({ priority: 1 }))).toEqual({ priority: 1 });
  });

  it('null clears: externalId, date, assignee, place, the whole window', () => {
    expect(
      connectorBodyToJobFields(body({ externalId: null, date: null, assigneeUsername: null, placeId: null, timeWindow: null })),
    ).toEqual({
      uidSecondary: '',
      day: 0,
      worker: '',
      placeUid: '',
      windowStart: 0,
      windowEnd: 0,
    });
  });
});

describe('toConnectorError', () => {
  it('renames the field of an error about the write at path (from DomainError.field), keeping the rule', () => {
    const e = toConnectorError(invalid('data.jobs[0].worker', 'must be the username of an active member of the company'), 'data.jobs[0]');
    expect(e).toMatchObject({
      kind: 'invalid',
      field: 'body.assigneeUsername',
      message: 'body.assigneeUsername: must be the username of an active member of the company',
    });
    expect(toConnectorError(invalid('data.jobs.A.B.windowEnd', 'must not be before windowStart (900)'), 'data.jobs.A.B')).toMatchObject({
      message: 'body.timeWindow.end: must not be before windowStart (900)',
    });
  });

  it('a uidSecondary another job holds (exists, 409 on the action API) is a 400 naming body.externalId', () => {
    const e = toConnectorError(
      exists('data.jobs.J1.uidSecondary: another job …', 'data.jobs.J1.uidSecondary', 'another job …'),
      'data.jobs.J1',
    );
    expect(e).toMatchObject({ kind: 'invalid', field: 'body.externalId', message: 'body.externalId: another job …' });
  });

  it('passes other errors unchanged', () => {
    for (const err of [
      notFound('job X'),
      new DomainError('forbidden', 'data.jobs.J1: nope'),
      invalid('data.autoassign', 'x'),
      invalid('data.jobs[1].priority', 'x'),
      new Error('boom'),
    ]) {
      expect(toConnectorError(err, 'data.jobs[0]')).toBe(err);
    }
  });
});
