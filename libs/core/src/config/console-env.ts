import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ReplicaEnv } from './replica-env';

/** The console's environment variables (docs/console.md), validated with the rest of {@link AppConfig}. */
export class ConsoleEnv extends ReplicaEnv {
  /**
   * The console's map tiles (docs/console.md): an http(s) `{z}/{x}/{y}` template (`{s}` for subdomains);
   * unset = no tiles, a plain background. Its host is added to the console's CSP.
   */
  @IsOptional()
  @IsString()
  @Matches(/^https?:\/\/[^\s/]+\/\S*\{z\}\S*\{x\}\S*\{y\}\S*$/, { message: 'must be an http(s):// URL template with {z}, {x} and {y}' })
  CONSOLE_TILE_URL?: string;

  /** The tiles' attribution shown on the console's map (text), e.g. "© OpenStreetMap contributors". */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  CONSOLE_TILE_ATTRIBUTION?: string;
}
