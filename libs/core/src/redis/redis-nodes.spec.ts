import { parseRedisClusterNodes } from './redis-nodes';

describe('parseRedisClusterNodes (REDIS_CLUSTER_NODES)', () => {
  it('reads comma-separated host:port, spaces allowed, IPv6 in brackets, in the order given', () => {
    expect(parseRedisClusterNodes('10.0.0.1:7000, redis-b.internal:7001 ,[::1]:7002')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-b.internal', port: 7001 },
        { host: '::1', port: 7002 },
      ],
    });
    expect(parseRedisClusterNodes('localhost:6379')).toEqual({ nodes: [{ host: 'localhost', port: 6379 }] });
  });

  it.each([
    ['', 'must list at least one host:port'],
    ['   ', 'must list at least one host:port'],
    ['a:1,,b:2', 'has an empty item'],
    ['a:1,', 'has an empty item'],
    ['redis-a', 'item "redis-a" must be host:port'],
    [':7000', 'item ":7000" must be host:port'],
    ['a:0', 'the port must be a whole number from 1 to 65535'],
    ['a:65536', 'the port must be a whole number from 1 to 65535'],
    ['a:70.5', 'the port must be a whole number from 1 to 65535'],
    ['a:', 'the port must be a whole number from 1 to 65535'],
    ['::1:7000', '"::1" is not a host name or address (IPv6 goes in brackets)'],
    ['bad_host:7000', '"bad_host" is not a host name or address'],
    ['redis://a:7000', 'is not a host name or address'],
    ['a:7000,A:7000', 'item "A:7000" is listed twice'],
  ])('%p → an error naming the rule (%s)', (value, message) => {
    const parsed = parseRedisClusterNodes(value);
    expect('error' in parsed && parsed.error).toContain(message);
  });
});
