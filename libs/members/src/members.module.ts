import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { CompanyService } from './company.service';
import { MembersService } from './members.service';
import { Passwords } from './passwords';

/** Company, members and API keys. */
@Module({
  providers: [ApiKeysService, CompanyService, MembersService, Passwords],
  exports: [ApiKeysService, CompanyService, MembersService],
})
export class MembersModule {}
