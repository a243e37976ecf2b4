import { loggedUrl, noteAnsweredError, requestFacts, serializeRequest, serializeResponse } from './logging';

describe('request log lines', () => {
  it('redact /osmand’s device id, whatever parameter carries it', () => {
    expect(loggedUrl('/osmand?id=ABC123&lat=46.1&lon=14.5')).toBe('/osmand?id=[redacted]&lat=46.1&lon=14.5');
    expect(loggedUrl('/osmand/?lat=1&deviceid=x%20y&lon=2')).toBe('/osmand/?lat=1&deviceid=[redacted]&lon=2');
    expect(loggedUrl('/osmand?ID=a')).toBe('/osmand?ID=[redacted]');
    expect(loggedUrl('/api/getjobs?id=1')).toBe('/api/getjobs?id=1');
    expect(loggedUrl('/v1/stream?events=jobcreated&token=st_abc&lastEventId=3')).toBe(
      '/v1/stream?events=jobcreated&token=[redacted]&lastEventId=3',
    );
    expect(loggedUrl('/v1/stream?TOKEN=x')).toBe('/v1/stream?TOKEN=[redacted]');
  });

  it('keep the id, method, URL, address and user agent of a request, no other header', () => {
    const line = serializeRequest({
      id: 'r1',
      method: 'POST',
      url: '/osmand?id=dev',
      remoteAddress: '127.0.0.1',
      headers: { 'user-agent': 'Traccar Client', 'api-key': 'fwk_secret', cookie: 'c' },
    });
    expect(line).toEqual({
      id: 'r1',
      method: 'POST',
      url: '/osmand?id=[redacted]',
      remoteAddress: '127.0.0.1',
      userAgent: 'Traccar Client',
    });
  });
});

describe('request facts and the response part of a line', () => {
  it('keep the status of a response, not its headers', () => {
    expect(serializeResponse({ statusCode: 400, headers: { 'content-security-policy': "default-src 'self'" } } as never)).toEqual({
      statusCode: 400,
    });
  });

  it('name the caller’s company and member once authenticated, and the answered error text, cut past 300 characters', () => {
    const req = { auth: { companyId: 'C1', memberId: 'M1' } } as never;
    const res = {} as never;
    expect(requestFacts(req, res)).toEqual({ company: 'C1', member: 'M1' });
    noteAnsweredError(res, 'data.accounts: must be an array');
    expect(requestFacts({} as never, res)).toEqual({ error: 'data.accounts: must be an array' });
    noteAnsweredError(res, 'x'.repeat(400));
    const cut = requestFacts({} as never, res).error!;
    expect(cut).toHaveLength(300);
    expect(cut.endsWith('x…')).toBe(true);
  });
});
