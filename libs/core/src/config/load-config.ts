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
  ]) {
    if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  }
  const config = plainToInstance(AppConfig, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  const lines = errors.map((e) => `${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  if (config.WORKER_TEST_KINDS === true && config.NODE_ENV === 'production')
    lines.push('WORKER_TEST_KINDS=true: not allowed when NODE_ENV=production');
  if (config.LOG_FORMAT === 'pretty' && config.NODE_ENV === 'production')
    lines.push('LOG_FORMAT="pretty": not allowed when NODE_ENV=production (production logs JSON)');
  if (lines.length) {
    throw new ConfigError(`invalid environment:\n  ${lines.join('\n  ')}`);
  }
  if (cache) cached = config;
  return config;
}
