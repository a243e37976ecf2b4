import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateBy } from 'class-validator';
import { parseRedisClusterNodes } from '../redis/redis-nodes';
import { toBool, toInt } from './env-transforms';
import { ConsoleEnv } from './console-env';
import { trustProxySetting } from './trust-proxy';

/**
 * Every environment variable the service reads, with its default. Validated once at start-up by
 * `loadConfig` (load-config.ts); a wrong value stops start-up with a message naming the variable.
 * `.env.example` documents each one. The live stream's variables are in {@link StreamEnv}.
 */
export class AppConfig extends ConsoleEnv {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /** HTTP port of the api. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** PostgreSQL connection URL; the database is created by `npm run migrate` if missing. */
  @IsString()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/fieldwork';

  /** Connections per process in the PostgreSQL pool. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /**
   * Redis URL for every Redis use: BullMQ queues, rate-limit counters, stream tokens. With
   * `REDIS_CLUSTER_NODES` only its user, password and `rediss://` (TLS) are used, for every node.
   */
  @IsString()
  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * Redis Cluster (docs/scaling.md): comma-separated `host:port` of some of its nodes (IPv6 in
   * brackets), from which the rest are found. Set, every Redis use goes to the cluster and each
   * queue's keys carry a hash tag of their own (`{<QUEUE_PREFIX>:<queue>}`); unset, one Redis server
   * (`REDIS_URL`) with the key names as always.
   */
  @IsOptional()
  @IsString()
  @ValidateBy({
    name: 'redisClusterNodes',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && !('error' in parseRedisClusterNodes(value)),
      defaultMessage: (args) => {
        const parsed = typeof args?.value === 'string' ? parseRedisClusterNodes(args.value) : { error: 'must be a string' };
        return `${'error' in parsed ? parsed.error : ''}; expected comma-separated host:port, e.g. 10.0.0.1:7000,10.0.0.2:7000`;
      },
    },
  })
  REDIS_CLUSTER_NODES?: string;

  /** Key prefix of every BullMQ key; tests use their own so runs never share queues. */
  @IsString()
  @Matches(/^[A-Za-z0-9_:-]{1,64}$/, { message: 'must be 1-64 of A-Z a-z 0-9 _ : -' })
  QUEUE_PREFIX = 'fieldwork';

  /** Server pepper for API-key hashes (HMAC-SHA-256). Changing it invalidates every issued key. */
  @IsString()
  @MinLength(16)
  API_KEY_PEPPER = 'fieldwork-local-development-pepper';

  /** argon2id memory cost in KiB for member passwords (tests may lower it). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1048576)
  PASSWORD_HASH_MEMORY_KIB = 19456;

  /** argon2id time cost (iterations). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  PASSWORD_HASH_TIME_COST = 2;

  /** Hours an invitation token stays valid. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 90)
  INVITATION_TTL_HOURS = 72;

  /** Active members allowed per company; 0 = unlimited (the plan limit). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  MEMBER_LIMIT = 0;

  /**
   * How often the worker writes its heartbeat, ms. A worker silent for 3 of these is taken as dead:
   * the other workers release its webhook delivery claims (docs/webhooks-internals.md).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600000)
  WORKER_HEARTBEAT_MS = 2000;

  /** BullMQ lock duration and stalled-check interval for the worker, ms. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  QUEUE_LOCK_MS = 30000;

  /** ms an api instance keeps answering after SIGTERM while readiness reports draining. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(120000)
  SHUTDOWN_DRAIN_MS = 0;

  /** `true` lets webhook URLs be plain http and private/loopback addresses (tests, on-premise). */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE = false;

  /** ms a webhook receiver has to answer with a 2xx. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120000)
  WEBHOOK_TIMEOUT_MS = 15000;

  /** Seconds between webhook retries, comma-separated (±20 % jitter); past the last, a delivery is abandoned. */
  @IsString()
  @Matches(/^\d{1,7}(,\d{1,7}){0,49}$/, { message: 'must be comma-separated whole seconds, e.g. 5,300,1800' })
  WEBHOOK_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,36000,36000';

  /** Deliveries in flight at once to one endpoint. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 4;

  /**
   * Rounds of `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` requests one claim of an endpoint's deliveries
   * holds: a drain claims up to rounds × cap at once and sends them cap at a time, so the database's
   * cost per call is shared by more deliveries. 1 claims only the cap.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  WEBHOOK_CLAIM_ROUNDS = 4;

  /**
   * Endpoints a worker process delivers to at once (`drain` tasks); each has up to
   * `WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT` requests in flight.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY = 32;

  /**
   * Locations passes (geofencing and alert rules over members' new fixes) a worker process runs at
   * once; each holds one database connection for its transaction, so keep it below
   * `DATABASE_POOL_SIZE` (the worker's other queues need connections too).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  LOCATIONS_CONCURRENCY = 4;

  /**
   * Members' `fixes` tasks one Locations pass takes at most: the tasks that arrive while every pass
   * is busy ride together in the next one (one transaction, a fixed number of statements). A worker
   * holds up to `LOCATIONS_CONCURRENCY × LOCATIONS_BATCH_SIZE` tasks at once.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(500)
  LOCATIONS_BATCH_SIZE = 16;

  /**
   * Members (of all companies together) whose latest location one api process keeps in memory for
   * `locate` (docs/locate.md, *The snapshot*; about 1.2 KB each); the least recently located
   * companies are dropped first. A company larger than this is read whole on every call.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  LOCATE_SNAPSHOT_MEMBERS = 100_000;

  /** ms after which a company's `locate` snapshot is read whole again instead of brought up to date. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  LOCATE_SNAPSHOT_MAX_AGE_MS = 300_000;

  /** ms of continuous failure after which an endpoint is disabled (default 5 days). */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

  /** ms between reconciler runs (re-enqueues pending deliveries whose task Redis lost). */
  @Transform(toInt)
  @IsInt()
  @Min(200)
  @Max(3600000)
  WEBHOOK_RECONCILE_MS = 30000;

  /**
   * ms between two runs of the time-driven alert evaluation (`no_check_*`, `idle`,
   * `no_connection_to_device`); every worker also re-creates the schedule at this period, so a Redis
   * that lost it gets it back (docs/alerts-evaluation.md).
   */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(86_400_000)
  ALERTS_TICK_MS = 60000;

  /** Days outbox events and delivery attempts are kept. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  WEBHOOK_RETENTION_DAYS = 30;

  /** ms the previous signing secret keeps signing after a rotation (default 24 h). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  WEBHOOK_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

  /** DNS servers for webhook host names (comma-separated ip[:port]); empty = the system resolver. */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F.:[\],]+$/, { message: 'must be comma-separated IP[:port] addresses' })
  WEBHOOK_DNS_SERVERS?: string;

  /** Requests per minute per API key. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE = 600;

  /** Requests per minute per client IP without a valid key (failed authentications). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE = 60;

  /**
   * Which hops' `X-Forwarded-For` entries name the client (Express `trust proxy`), for the per-IP
   * limit and the logs: a hop count (`1` = exactly one proxy in front: the client is the address it
   * appended, whatever the client sent), `false` (no proxy: the socket address), or comma-separated
   * addresses, CIDR subnets and the names `loopback`, `linklocal`, `uniquelocal` (every hop from such
   * an address is believed, so a client that itself has such an address can forge its own). `true`
   * is refused: any client could name any address.
   */
  @IsString()
  @ValidateBy({
    name: 'trustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && trustProxySetting(value) !== undefined,
      defaultMessage: () => 'must be a hop count (e.g. 1), false, or comma-separated addresses, subnets, loopback, linklocal, uniquelocal',
    },
  })
  TRUST_PROXY = 'loopback,linklocal,uniquelocal';

  /** Queue dashboard: `true` allows retrying and removing tasks; read-only otherwise. */
  @Transform(toBool)
  @IsBoolean()
  QUEUE_DASHBOARD_WRITE = false;

  /** Origins allowed by CORS (comma-separated, e.g. https://app.example.com); empty = CORS off. */
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  /** Queue dashboard credentials; the dashboard is off unless both are set. */
  @IsOptional()
  @IsString()
  QUEUE_DASHBOARD_USER?: string;

  @IsOptional()
  @IsString()
  QUEUE_DASHBOARD_PASSWORD?: string;

  /** Bearer token `GET /metrics` requires; unset = open (keep it on a private network then). */
  @IsOptional()
  @IsString()
  @MinLength(16)
  METRICS_TOKEN?: string;

  /** ms the shared-state metrics (queue depths, delivery states; read from Redis and PostgreSQL) are cached per instance. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  METRICS_CACHE_MS = 10_000;

  /** `GET /docs` (Swagger UI) and `GET /docs/openapi.json`; `false` answers 404 there. */
  @Transform(toBool)
  @IsBoolean()
  DOCS_ENABLED = true;

  /** ms a dispatch call (distributejobs, autoassign, optimizeroute, createjobs with autoassign) waits for the worker; also its write deadline. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600000)
  DISPATCH_TIMEOUT_MS = 30000;

  /** ms a synchronous createreport waits for the worker before answering -99/503 with the reportId. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3600000)
  REPORT_TIMEOUT_MS = 120000;

  /** ms a report may run after it starts; past it the worker writes nothing and the run is `expired`. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(24 * 3600000)
  REPORT_MAX_RUN_MS = 600000;

  /**
   * Report renders at once per worker: the threads of its report pool (each holds two PostgreSQL
   * connections: a read-only snapshot and the file writer). Reports wait for a thread; webhook
   * delivery and dispatch never wait for reports.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(32)
  REPORT_THREADS = 1;

  /** Hours a finished report's file is kept for getreport; then its chunks and run are pruned. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 365)
  REPORT_RETENTION_HOURS = 24;

  /** Worker threads of the worker's CPU pool (route search, clustering, rendering); 0 = max(1, cores − 1). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(256)
  CPU_POOL_THREADS = 0;

  /**
   * Nice value (0–19) each CPU pool thread gives itself at start: route search and clustering yield
   * the cores to the event loops (webhook delivery, the api) whenever both want them. Linux applies
   * `setpriority` per thread; where the OS refuses, the thread keeps the process's priority.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(19)
  CPU_POOL_NICE = 10;

  /** Days location fixes are kept; older monthly partitions of `location_fixes` are dropped whole. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(36500)
  LOCATION_RETENTION_DAYS = 180;

  /**
   * `/osmand` group commit: ingest statements an api process runs at once for device requests (each
   * holds a database connection while it runs, so keep it below `DATABASE_POOL_SIZE`). Requests
   * arriving while all run ride together in the next statement (docs/locations-ingest.md, *Group
   * commit*). 1 measured best in the ingest bench (c = 8: 60–62 % of the baseline against 55–59 % with
   * 2); with 1, a statement waiting on a member's row lock holds every `/osmand` request of the process.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  OSMAND_GROUP_COMMIT_PASSES = 1;

  /** `/osmand` group commit: requests (each one device's fixes) one ingest statement holds at most. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  OSMAND_GROUP_COMMIT_SIZE = 64;

  /** Days tracks, check-ins, stops and clock events are kept (for reports). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(36500)
  HISTORY_RETENTION_DAYS = 3650;

  /** Minutes within 100 m that end a track (a stop). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1440)
  TRACK_STOP_MINUTES = 5;

  /**
   * ms a member's track (re)build waits after new fixes, collecting the calls meanwhile into one
   * rebuild (tracks are at most this much behind the newest fix). 60 s: with 10 s a phone reporting
   * every 10 s made one build per fix, and under the mixed load the builds ran back to back, taking
   * CPU from the request path (docs/tracks.md, *When*).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600000)
  TRACK_BUILD_DELAY_MS = 60000;

  /** Base of public links (track share URLs); unset = `http://127.0.0.1:$PORT`. */
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'must be an http(s):// URL' })
  PUBLIC_BASE_URL?: string;

  /** A Nominatim-compatible geocoder (`/search`, `/reverse`); unset = no geocoding. */
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, { message: 'must be an http(s):// URL' })
  GEOCODER_URL?: string;

  /** `true` registers the test-only run kinds (`test.*`) in the worker; refused when NODE_ENV=production. */
  @Transform(toBool)
  @IsBoolean()
  WORKER_TEST_KINDS = false;

  /**
   * Fault injection for the durability specs: `true` makes the process `SIGKILL` itself right after
   * a transaction that wrote outbox events committed and before it enqueues their wake-up
   * (`OutboxService.wake`), as a crash between commit and wake-up would. Honoured only with
   * NODE_ENV=test; refused when NODE_ENV=production.
   */
  @Transform(toBool)
  @IsBoolean()
  TEST_KILL_BEFORE_WAKE = false;

  /** Log level: fatal, error, warn, log, debug, verbose. */
  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  /** Log lines of both processes: `json`, or `pretty` (pino-pretty, a devDependency; refused in production). */
  @IsIn(['json', 'pretty'])
  LOG_FORMAT: 'json' | 'pretty' = 'json';
}
