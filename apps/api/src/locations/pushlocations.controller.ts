import { AppConfig, AuthContext } from '@app/core';
import { PushLocationsDto, PushLocationsService, validateFixes } from '@app/locations';
import { Controller } from '@nestjs/common';
import { Action, Caller, Data } from '../envelope/decorators';

/** `POST /api/pushlocations`: a member's phone reports its fixes, tracking state and details, for itself. */
@Controller('api')
export class PushLocationsController {
  constructor(
    private readonly ingest: PushLocationsService,
    private readonly config: AppConfig,
  ) {}

  @Action('pushlocations')
  async pushlocations(@Caller() ctx: AuthContext, @Data() dto: PushLocationsDto) {
    const now = Date.now();
    const { fixes, rejected } = validateFixes(dto.locations, { now, retentionMs: this.config.LOCATION_RETENTION_DAYS * 86_400_000 });
    const result = await this.ingest.ingest({
      companyId: ctx.companyId,
      memberId: ctx.memberId,
      fixes,
      source: 'app',
      tracking: dto.tracking,
      trackingTs: dto.tracking_ts,
      device: dto.device,
      now,
    });
    return { status: 0, accepted: result.accepted, duplicates: result.duplicates, rejected, ping: result.ping };
  }
}
