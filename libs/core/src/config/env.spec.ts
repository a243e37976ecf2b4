import { AppConfig } from './env';
import { ConfigError, loadConfig } from './load-config';
import { trustProxySetting } from './trust-proxy';

const load = (env: NodeJS.ProcessEnv) => loadConfig(env, { cache: false });

/** The ConfigError thrown for `env` (fails the test when nothing is thrown). */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives every default with an empty environment', () => {
    const config = load({});
    expect(config).toBeInstanceOf(AppConfig);
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/fieldwork',
      DATABASE_POOL_SIZE: 10,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: 'fieldwork',
      API_KEY_PEPPER: 'fieldwork-local-development-pepper',
      PASSWORD_HASH_MEMORY_KIB: 19456,
      PASSWORD_HASH_TIME_COST: 2,
      INVITATION_TTL_HOURS: 72,
      MEMBER_LIMIT: 0,
      WORKER_HEARTBEAT_MS: 2000,
      QUEUE_LOCK_MS: 30000,
      SHUTDOWN_DRAIN_MS: 0,
      WEBHOOK_ALLOW_PRIVATE: false,
      RATE_LIMIT_PER_MINUTE: 600,
      TRUST_PROXY: 'loopback,linklocal,uniquelocal',
      LOG_LEVEL: 'log',
      LOG_FORMAT: 'json',
    });
    expect(config.QUEUE_DASHBOARD_USER).toBeUndefined();
    expect(config.QUEUE_DASHBOARD_PASSWORD).toBeUndefined();
  });

  it('treats empty strings as unset', () => {
    const config = load({ PORT: '', DATABASE_URL: '', WEBHOOK_ALLOW_PRIVATE: '', LOG_LEVEL: '', QUEUE_DASHBOARD_USER: '' });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/fieldwork');
    expect(config.WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(config.LOG_LEVEL).toBe('log');
    expect(config.QUEUE_DASHBOARD_USER).toBeUndefined();
  });

  it('reads LOG_FORMAT=pretty in development, refuses it with NODE_ENV=production', () => {
    expect(load({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(load({ NODE_ENV: 'production', LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(configError({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }).message).toContain(
      'LOG_FORMAT="pretty": not allowed when NODE_ENV=production',
    );
  });

  it('reads TEST_KILL_BEFORE_WAKE (off by default), refuses it with NODE_ENV=production', () => {
    expect(load({}).TEST_KILL_BEFORE_WAKE).toBe(false);
    expect(load({ NODE_ENV: 'test', TEST_KILL_BEFORE_WAKE: 'true' }).TEST_KILL_BEFORE_WAKE).toBe(true);
    expect(configError({ NODE_ENV: 'production', TEST_KILL_BEFORE_WAKE: 'true' }).message).toContain(
      'TEST_KILL_BEFORE_WAKE=true: not allowed when NODE_ENV=production',
    );
  });

  it('ignores variables it does not know', () => {
    const config = load({ HOME: '/root', PATH: '/bin', SOMETHING_ELSE: 'x' }) as unknown as Record<string, unknown>;
    expect(config.HOME).toBeUndefined();
    expect(config.SOMETHING_ELSE).toBeUndefined();
  });

  it('reads valid overrides, converting numbers from strings', () => {
    const config = load({
      NODE_ENV: 'production',
      PORT: '8080',
      DATABASE_URL: 'postgresql://u:p@db:5432/other',
      DATABASE_POOL_SIZE: '200',
      REDIS_URL: 'rediss://cache:6380/2',
      QUEUE_PREFIX: 'test:run_1-a',
      API_KEY_PEPPER: '0123456789abcdef',
      PASSWORD_HASH_MEMORY_KIB: '1024',
      PASSWORD_HASH_TIME_COST: '1',
      INVITATION_TTL_HOURS: '2160',
      MEMBER_LIMIT: '25',
      WORKER_HEARTBEAT_MS: '100',
      QUEUE_LOCK_MS: '1000',
      SHUTDOWN_DRAIN_MS: '120000',
      RATE_LIMIT_PER_MINUTE: '1',
      QUEUE_DASHBOARD_USER: 'ops',
      QUEUE_DASHBOARD_PASSWORD: 'secret',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      NODE_ENV: 'production',
      PORT: 8080,
      DATABASE_URL: 'postgresql://u:p@db:5432/other',
      DATABASE_POOL_SIZE: 200,
      REDIS_URL: 'rediss://cache:6380/2',
      QUEUE_PREFIX: 'test:run_1-a',
      API_KEY_PEPPER: '0123456789abcdef',
      PASSWORD_HASH_MEMORY_KIB: 1024,
      PASSWORD_HASH_TIME_COST: 1,
      INVITATION_TTL_HOURS: 2160,
      MEMBER_LIMIT: 25,
      WORKER_HEARTBEAT_MS: 100,
      QUEUE_LOCK_MS: 1000,
      SHUTDOWN_DRAIN_MS: 120000,
      RATE_LIMIT_PER_MINUTE: 1,
      QUEUE_DASHBOARD_USER: 'ops',
      QUEUE_DASHBOARD_PASSWORD: 'secret',
      LOG_LEVEL: 'debug',
    });
    expect(typeof config.PORT).toBe('number');
  });

  it('accepts the boundaries of PORT', () => {
    expect(load({ PORT: '0' }).PORT).toBe(0);
    expect(load({ PORT: '65535' }).PORT).toBe(65535);
  });

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads WEBHOOK_ALLOW_PRIVATE=%p as %p', (value, expected) => {
    expect(load({ WEBHOOK_ALLOW_PRIVATE: value }).WEBHOOK_ALLOW_PRIVATE).toBe(expected);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '3000.5'],
    ['PORT', '1e3'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'postgres://'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', '201'],
    ['REDIS_URL', 'http://cache:6379'],
    ['QUEUE_PREFIX', 'has space'],
    ['QUEUE_PREFIX', 'x'.repeat(65)],
    ['API_KEY_PEPPER', 'short'],
    ['PASSWORD_HASH_MEMORY_KIB', '1023'],
    ['PASSWORD_HASH_TIME_COST', '21'],
    ['INVITATION_TTL_HOURS', '0'],
    ['MEMBER_LIMIT', '-1'],
    ['WORKER_HEARTBEAT_MS', '99'],
    ['QUEUE_LOCK_MS', '999'],
    ['SHUTDOWN_DRAIN_MS', '120001'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', 'everything'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'loopback,,10.0.0.1'],
    ['WEBHOOK_ALLOW_PRIVATE', 'maybe'],
    ['WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ['WEBHOOK_ALLOW_PRIVATE', 'TRUE'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'trace'],
    ['LOG_FORMAT', 'text'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_CACHE_MS', '-1'],
    ['METRICS_CACHE_MS', 'soon'],
  ])('refuses %s=%p, naming the variable and its value', (name, value) => {
    const err = configError({ [name]: value });
    // the value as read: integers after conversion, anything else quoted
    const shown = /^-?\d+$/.test(value) ? value : JSON.stringify(value);
    expect(err.message).toContain(`\n  ${name}=${shown}: `);
    // only the bad variable is named
    expect(err.message.split('\n').filter((l) => /^\s+[A-Z_]+=/.test(l))).toHaveLength(1);
  });

  it.each([
    ['1', 1],
    ['2', 2],
    ['0', false],
    ['false', false],
    ['loopback, linklocal, uniquelocal', ['loopback', 'linklocal', 'uniquelocal']],
    ['10.0.0.5', ['10.0.0.5']],
    ['10.0.0.0/8,fd00::/8, ::1', ['10.0.0.0/8', 'fd00::/8', '::1']],
  ])('reads TRUST_PROXY=%p as the Express trust proxy value %p', (value, expected) => {
    expect(load({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
    expect(trustProxySetting(value)).toEqual(expected);
  });

  it('REDIS_CLUSTER_NODES: unset by default, read as given when valid', () => {
    expect(load({}).REDIS_CLUSTER_NODES).toBeUndefined();
    expect(load({ REDIS_CLUSTER_NODES: '' }).REDIS_CLUSTER_NODES).toBeUndefined();
    expect(load({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001,[::1]:7002' }).REDIS_CLUSTER_NODES).toBe(
      '10.0.0.1:7000, redis-b:7001,[::1]:7002',
    );
    // the user, password and TLS of REDIS_URL apply to every node; database 0 is allowed
    expect(load({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_URL: 'rediss://u:p@ignored:1/0' }).REDIS_URL).toBe('rediss://u:p@ignored:1/0');
  });

  it.each([
    ['redis-a', 'item "redis-a" must be host:port'],
    ['a:7000,,b:7000', 'has an empty item'],
    ['a:99999', 'the port must be a whole number from 1 to 65535'],
    ['redis://a:7000', 'is not a host name or address'],
  ])('refuses REDIS_CLUSTER_NODES=%p naming the item and the rule', (value, rule) => {
    const err = configError({ REDIS_CLUSTER_NODES: value });
    expect(err.message).toContain(`\n  REDIS_CLUSTER_NODES=${JSON.stringify(value)}: `);
    expect(err.message).toContain(rule);
    expect(err.message).toContain('expected comma-separated host:port');
  });

  it('DATABASE_REPLICA_URL: unset by default, a postgres:// URL when set', () => {
    expect(load({}).DATABASE_REPLICA_URL).toBeUndefined();
    expect(load({ DATABASE_REPLICA_URL: '' }).DATABASE_REPLICA_URL).toBeUndefined();
    expect(load({ DATABASE_REPLICA_URL: 'postgres://reader@10.0.0.2:5432/fieldwork' }).DATABASE_REPLICA_URL).toBe(
      'postgres://reader@10.0.0.2:5432/fieldwork',
    );
    expect(configError({ DATABASE_REPLICA_URL: 'mysql://x/y' }).message).toContain(
      '\n  DATABASE_REPLICA_URL="mysql://x/y": must be a postgres:// URL',
    );
  });

  it('refuses a REDIS_URL database with REDIS_CLUSTER_NODES (a cluster has database 0 only)', () => {
    expect(configError({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_URL: 'redis://cache:6379/2' }).message).toContain(
      '\n  REDIS_URL="redis://cache:6379/2": must not select a database (/n) with REDIS_CLUSTER_NODES',
    );
  });

  it('refuses a TRUST_PROXY hop count past 10', () => {
    expect(configError({ TRUST_PROXY: '11' }).message).toContain('\n  TRUST_PROXY="11": must be a hop count');
  });

  it('names every bad variable at once, with its rule', () => {
    const err = configError({ PORT: 'abc', DATABASE_URL: 'mysql://x', WEBHOOK_ALLOW_PRIVATE: 'maybe', REDIS_URL: 'redis://ok:6379' });
    const lines = err.message.split('\n');
    expect(lines[0]).toBe('invalid environment:');
    expect(lines).toHaveLength(4);
    expect(err.message).toMatch(/PORT="abc": .*integer/);
    expect(err.message).toContain('DATABASE_URL="mysql://x": must be a postgres:// URL');
    expect(err.message).toMatch(/WEBHOOK_ALLOW_PRIVATE="maybe": .*boolean/);
    expect(err.message).not.toContain('REDIS_URL');
  });

  it('neither reads nor writes the cache with cache: false', () => {
    const a = load({ PORT: '1234' });
    const b = load({ PORT: '4321' });
    expect(a).not.toBe(b);
    expect(a.PORT).toBe(1234);
    expect(b.PORT).toBe(4321);
  });

  it('with the cache, keeps the first valid config and ignores later environments', async () => {
    await jest.isolateModulesAsync(async () => {
      const env = await import('./load-config');
      expect(() => env.loadConfig({ PORT: 'abc' })).toThrow(env.ConfigError); // a failure is not cached
      const first = env.loadConfig({ PORT: '1234' });
      expect(first.PORT).toBe(1234);
      expect(env.loadConfig({ PORT: '9999' })).toBe(first);
      expect(env.loadConfig({ PORT: 'abc' })).toBe(first);
      expect(env.loadConfig({ PORT: '9999' }, { cache: false }).PORT).toBe(9999);
      expect(env.loadConfig({})).toBe(first);
    });
  });
});
