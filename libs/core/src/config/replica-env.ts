import { IsOptional, IsString, Matches } from 'class-validator';
import { StreamEnv } from './stream-env';

/** The read replica's environment variable (docs/scaling.md, "Read replica"), validated with the rest of {@link AppConfig}. */
export class ReplicaEnv extends StreamEnv {
  /**
   * A streaming replica of `DATABASE_URL` (docs/scaling.md, "Read replica"): report cursors and
   * gettracks read from it once it has replayed past the caller's last commit; otherwise, and while
   * it is down, from the primary. Unset (the default): every read goes to the primary.
   */
  @IsOptional()
  @IsString()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// URL' })
  DATABASE_REPLICA_URL?: string;
}
