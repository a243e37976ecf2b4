import { queryOne } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The member a device reports for: its own company (device ids are unique across the platform). */
export interface DeviceMember {
  companyId: string;
  memberId: string;
}

/**
 * Device ids (`members.device_id`, set with editaccount) → members, for `/osmand`: a platform-wide
 * lookup, case-insensitive (the unique index is on `lower(device_id)`); deactivated members'
 * devices are unknown.
 */
@Injectable()
export class DeviceDirectory {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** @returns the active member holding `deviceId`, or null */
  async find(deviceId: string): Promise<DeviceMember | null> {
    const row = await queryOne<{ id: string; company_id: string }>(
      this.dataSource,
      `SELECT id, company_id FROM members WHERE lower(device_id) = lower($1) AND device_id IS NOT NULL AND active_status = 'active'`,
      [deviceId],
    );
    return row ? { companyId: row.company_id, memberId: row.id } : null;
  }
}
