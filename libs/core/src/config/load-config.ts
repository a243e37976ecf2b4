import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppConfig } from './env';

/** Thrown at start-up when the environment is invalid; the message names each bad variable. */
export class ConfigError extends Error {}

let cached: AppConfig | undefined;

/**
 * Reads, converts and validates the environment once.
 * @throws ConfigError naming every variable with a wrong value.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, { cache = true } = {}): AppConfig {
  if (cache && cached) return cached;
  const known = Object.keys(new AppConfig());
  const raw: Record<string, unknown> = {};
  for (const key of [
    ...known,
    'QUEUE_DASHBOARD_USER',
    'QUEUE_DASHBOARD_PASSWORD',
    'WEBHOOK_DNS_SERVERS',
    'CORS_ORIGINS',
    'METRICS_TOKEN',
    'PUBLIC_BASE_URL',
    'GEOCODER_URL',
    'CONSOLE_TILE_URL',
    'CONSOLE_TILE_ATTRIBUTION',
    'REDIS_CLUSTER_NODES',
    'DATABASE_REPLICA_URL',
  ]) {
    if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  }
  const config = plainToInstance(AppConfig, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  const lines = errors.map((e) => `${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  if (config.WORKER_TEST_KINDS === true && config.NODE_ENV === 'production')
    lines.push('WORKER_TEST_KINDS=true: not allowed when NODE_ENV=production');
  if (config.TEST_KILL_BEFORE_WAKE === true && config.NODE_ENV === 'production')
    lines.push('TEST_KILL_BEFORE_WAKE=true: not allowed when NODE_ENV=production');
  if (config.LOG_FORMAT === 'pretty' && config.NODE_ENV === 'production')
    lines.push('LOG_FORMAT="pretty": not allowed when NODE_ENV=production (production logs JSON)');
  if (config.REDIS_CLUSTER_NODES && selectsDatabase(config.REDIS_URL))
    lines.push(
      `REDIS_URL=${JSON.stringify(config.REDIS_URL)}: must not select a database (/n) with REDIS_CLUSTER_NODES (a cluster has database 0 only)`,
    );
  if (lines.length) {
    throw new ConfigError(`invalid environment:\n  ${lines.join('\n  ')}`);
  }
  if (cache) cached = config;
  return config;
}

/** Whether a Redis URL names a database other than 0 (`redis://host/3`); false for a URL that does not parse. */
function selectsDatabase(url: string): boolean {
  try {
    const path = new URL(url).pathname;
    return path.length > 1 && path !== '/0';
  } catch {
    return false;
  }
}
