import { LineColors, prettyMessage } from './pretty-line';

describe('prettyMessage (LOG_FORMAT=pretty)', () => {
  const request = {
    level: 30,
    name: 'api',
    req: { id: 'req-1', method: 'POST', url: '/api/getaccounts', remoteAddress: '::1', userAgent: 'curl/8' },
    res: { statusCode: 400 },
    responseTime: 3,
    company: 'C1',
    member: 'M1',
    error: 'data.bogus: unknown field',
    msg: 'request completed',
  };

  it('makes a request line of method, path, status, ms, request id, company, member and the error text', () => {
    expect(prettyMessage(request)).toBe('POST /api/getaccounts 400 3 ms req=req-1 company=C1 member=M1 error: data.bogus: unknown field');
  });

  it('leaves out what a request does not have: company and member before authentication, the error of a 200', () => {
    const { company: _c, member: _m, error: _e, ...anonymous } = request;
    expect(prettyMessage({ ...anonymous, res: { statusCode: 200 } })).toBe('POST /api/getaccounts 200 3 ms req=req-1');
  });

  it('colours the status by its class, the ids grey', () => {
    const tag = (t: string) => (s: string) => `<${t}>${s}</${t}>`;
    const colors: LineColors = { red: tag('r'), yellow: tag('y'), green: tag('g'), gray: tag('d'), cyan: tag('c') };
    expect(prettyMessage(request, 'msg', colors)).toBe(
      'POST /api/getaccounts <y>400</y> 3 ms <d>req=req-1 company=C1 member=M1</d> <y>error: data.bogus: unknown field</y>',
    );
    expect(prettyMessage({ ...request, res: { statusCode: 500 } }, 'msg', colors)).toContain('<r>500</r>');
    expect(prettyMessage({ ...request, res: { statusCode: 204 }, error: undefined }, 'msg', colors)).toContain('<g>204</g>');
  });

  it('writes other lines as [context] message', () => {
    expect(prettyMessage({ level: 30, context: 'Worker', msg: 'fieldwork worker started' })).toBe('[Worker] fieldwork worker started');
    expect(prettyMessage({ level: 30, msg: 'no context' })).toBe('no context');
    // a req without a method (not a request line) is not read as one
    expect(prettyMessage({ level: 30, req: {}, res: {}, msg: 'odd' })).toBe('odd');
  });
});
