import { ConnectorPollingQueryDto, Optional } from '@app/core';
import { IsString, Matches } from 'class-validator';
import { CHECKIN_KINDS } from './connector-items';

const KIND_LIST = new RegExp(`^(${CHECKIN_KINDS.join('|')})(,(${CHECKIN_KINDS.join('|')}))*$`);

/** `GET /v1/checkins` query string. */
export class CheckinsQueryDto extends ConnectorPollingQueryDto {
  /** one or more of placecheckin, placecheckout, jobcheckin, jobcheckout (comma-separated); absent: all */
  @Optional()
  @IsString()
  @Matches(KIND_LIST, { message: `must be one or more of ${CHECKIN_KINDS.join(', ')}, comma-separated` })
  kind?: string;
}

/** `GET /v1/clock-events` query string. */
export class ClockEventsQueryDto extends ConnectorPollingQueryDto {}
