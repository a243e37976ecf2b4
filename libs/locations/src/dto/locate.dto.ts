import { CompletesValidation, invalid, Optional, Verbatim } from '@app/core';
import type { LocateQuery } from '../locate/locate.service';
import { Allow, IsBoolean, IsIn, IsObject } from 'class-validator';

/** Most `accounts` keys and `teams` numbers one `locate` call takes. */
export const LOCATE_MAX_KEYS = 5000;

/**
 * `locate` (spec "Locate: POST /api/locate"). Once its rules pass, the pipe turns it into
 * {@link query}: the keys of `accounts`, and `teams` as numbers, `'all'` (any non-array value, as the
 * spec's table says — `true`, but also `false`, `null`, a number…) or `undefined` (omitted).
 */
export class LocateDto implements CompletesValidation {
  /** keys: member uids or usernames; each value an empty object `{}` */
  @Optional()
  @Verbatim()
  @IsObject({ message: 'must be an object keyed by member uid or username, each value {}' })
  accounts?: Record<string, unknown>;

  /** an array of team numbers (members of those teams; [] selects none), or any non-array value (every member) */
  @Verbatim()
  @Allow()
  teams?: unknown;

  @Optional()
  @IsBoolean()
  withAddress?: boolean;

  @Optional()
  @IsBoolean()
  withDetails?: boolean;

  @Optional()
  @IsIn(['ping'], { message: 'must be "ping"' })
  signal?: string;

  /** The validated request (not a wire field: set by {@link completeValidation}). */
  declare query: LocateQuery;

  completeValidation(prefix: string): void {
    const accounts = this.accounts ?? {};
    const keys = Object.keys(accounts);
    if (keys.length > LOCATE_MAX_KEYS) throw invalid(`${prefix}.accounts`, `at most ${LOCATE_MAX_KEYS} accounts per call`);
    for (const key of keys) {
      const value = accounts[key];
      if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length)
        throw invalid(`${prefix}.accounts.${key}`, 'must be an empty object {}');
    }
    let teams: LocateQuery['teams'];
    if (this.teams === undefined) teams = undefined;
    else if (Array.isArray(this.teams)) {
      if (this.teams.length > LOCATE_MAX_KEYS) throw invalid(`${prefix}.teams`, `at most ${LOCATE_MAX_KEYS} team numbers`);
      const bad = this.teams.findIndex((t) => !Number.isSafeInteger(t));
      if (bad >= 0) throw invalid(`${prefix}.teams.${bad}`, 'must be an integer team number');
      teams = [...new Set(this.teams as number[])];
    } else teams = 'all';
    this.query = {
      accounts: keys,
      teams,
      withAddress: this.withAddress ?? false,
      withDetails: this.withDetails ?? false,
      ping: this.signal === 'ping',
    };
  }
}
