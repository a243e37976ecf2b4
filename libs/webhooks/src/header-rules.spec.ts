import { headersProblem, MAX_HEADER_BYTES, MAX_HEADERS, maskHeaderValue } from './header-rules';

describe('headersProblem', () => {
  it('accepts an empty object and ordinary custom headers', () => {
    expect(headersProblem({})).toBeNull();
    expect(headersProblem({ Authorization: 'Bearer abc', 'X-Api-Key': 'k', "x-weird!#$%&'*+-.^_`|~9": 'v' })).toBeNull();
  });

  it.each([null, undefined, 'x', 1, true, [], [['a', 'b']]])('refuses the non-object %p', (headers) => {
    expect(headersProblem(headers)).toBe('must be an object of header name to value');
  });

  it(`accepts ${MAX_HEADERS} headers and refuses ${MAX_HEADERS + 1}`, () => {
    const make = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, 'v']));
    expect(headersProblem(make(MAX_HEADERS))).toBeNull();
    expect(headersProblem(make(MAX_HEADERS + 1))).toBe(`at most ${MAX_HEADERS} headers`);
  });

  it.each([
    '',
    'x header',
    'x:h',
    'x\r\nevil',
    'x\nh',
    'é',
    'x(h)',
    'x"h',
    'x/h',
    'x@h',
    'x[h]',
    'x{h}',
    'x,h',
    'x;h',
    'x=h',
    'x?h',
    'x\\h',
  ])('refuses the header name %p (not an RFC 7230 token)', (name) => {
    expect(headersProblem({ [name]: 'v' })).toBe(`header name "${name}" must be an RFC 7230 token`);
  });

  it('quotes at most 40 characters of a bad name', () => {
    const name = `${'a'.repeat(50)} b`;
    expect(headersProblem({ [name]: 'v' })).toBe(`header name "${'a'.repeat(40)}" must be an RFC 7230 token`);
  });

  it('refuses the same name twice in different cases', () => {
    expect(headersProblem({ 'X-Key': 'a', 'x-key': 'b' })).toBe('header x-key is given twice');
  });

  it.each([
    'webhook-id',
    'Webhook-Signature',
    'WEBHOOK-TIMESTAMP',
    'webhook-anything',
    'content-type',
    'Content-Length',
    'content-encoding',
    'host',
    'Host',
    'connection',
    'Keep-Alive',
    'proxy-authenticate',
    'Proxy-Authorization',
    'proxy-connection',
    'te',
    'trailer',
    'Transfer-Encoding',
    'upgrade',
    'expect',
  ])('refuses the reserved header %s', (name) => {
    expect(headersProblem({ [name]: 'v' })).toBe(`header ${name} is reserved`);
  });

  it.each([
    ['webhooks', 'not webhook-*'],
    ['x-webhook-id', 'webhook- not at the start'],
    ['contents', 'not content-*'],
    ['hostname', 'not host'],
    ['authorization', 'end-to-end'],
    ['user-agent', 'set by the sender but not reserved'],
  ])('accepts %s (%s)', (name) => {
    expect(headersProblem({ [name]: 'v' })).toBeNull();
  });

  it.each([1, null, true, {}, ['a']])('refuses the non-string value %p', (value) => {
    expect(headersProblem({ 'x-key': value })).toBe('header x-key must have a string value');
  });

  it.each(['a\rb', 'a\nb', 'a\r\nInjected: yes', 'a\0b', '\n'])('refuses the value %p (CR, LF or NUL)', (value) => {
    expect(headersProblem({ 'x-key': value })).toBe('header x-key must not contain CR, LF or NUL');
  });

  it('accepts an empty value, tabs and non-ASCII text', () => {
    expect(headersProblem({ 'x-a': '', 'x-b': 'a\tb', 'x-c': 'café' })).toBeNull();
  });

  it(`limits name + value to ${MAX_HEADER_BYTES} bytes (UTF-8)`, () => {
    const name = 'x-key'; // 5 bytes
    expect(headersProblem({ [name]: 'v'.repeat(MAX_HEADER_BYTES - 5) })).toBeNull();
    expect(headersProblem({ [name]: 'v'.repeat(MAX_HEADER_BYTES - 4) })).toBe(`header ${name} must be at most ${MAX_HEADER_BYTES} bytes`);
    // 'é' is 2 bytes: counted in bytes, not characters
    expect(headersProblem({ [name]: 'é'.repeat(Math.ceil((MAX_HEADER_BYTES - 4) / 2)) })).toBe(
      `header ${name} must be at most ${MAX_HEADER_BYTES} bytes`,
    );
  });

  it('names the first broken header when several are broken', () => {
    expect(headersProblem({ 'x-ok': 'v', host: 'evil', 'bad name': 'v' })).toBe('header host is reserved');
  });
});

describe('maskHeaderValue', () => {
  it('shows only the last 4 characters', () => {
    expect(maskHeaderValue('Bearer supersecret1234')).toBe('****1234');
    expect(maskHeaderValue('abcde')).toBe('****bcde');
  });

  it('hides a value of 4 characters or fewer entirely', () => {
    for (const v of ['', 'a', 'abcd']) expect(maskHeaderValue(v)).toBe('****');
  });

  it('never contains the hidden part', () => {
    const value = 'sk_live_0123456789abcdef';
    const masked = maskHeaderValue(value);
    expect(masked).not.toContain(value.slice(0, -4));
  });
});
