import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from './env-transforms';

/** `pushlocations`' group commit (docs/locations-ingest.md, *Group commit*), validated with the rest of {@link AppConfig}. */
export class IngestEnv {
  /**
   * `pushlocations` group commit: ingest statements an api process runs at once for calls without
   * `tracking` (each holds a database connection while it runs: keep it below `DATABASE_POOL_SIZE`).
   * Calls arriving while all run ride together in the next statement. 2 (not `/osmand`'s 1): a
   * `tracking` call's transaction holds its member's row lock for a few round trips, and with one
   * pass a statement waiting on it would hold every call of the process.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  PUSH_GROUP_COMMIT_PASSES = 2;

  /** `pushlocations` group commit: calls (each one member's fixes) one ingest statement holds at most. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  PUSH_GROUP_COMMIT_SIZE = 64;

  /**
   * ms an api process gathers the members whose fixes it stored before sending them to the worker
   * as ONE Locations `batch` task (docs/locations-ingest.md, *Fixes task*): geofencing and the alert
   * rules see a fix at most this much later, and the worker evaluates a window's members in one pass
   * (a pass costs its round trips whatever it holds). A window also ends early at
   * `LOCATIONS_TASK_MAX_MEMBERS` members.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(5000)
  LOCATIONS_TASK_WINDOW_MS = 250;

  /** Members one Locations `batch` task holds at most (a fuller window is sent at once). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  LOCATIONS_TASK_MAX_MEMBERS = 200;
}
