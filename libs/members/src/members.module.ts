import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { CompanyService } from './company.service';
import { MembersService } from './members.service';
import { Passwords } from './passwords';
import { TeamReferences } from './team-references';

/** Company, members and API keys. */
@Module({
  providers: [ApiKeysService, CompanyService, MembersService, Passwords, TeamReferences],
  exports: [ApiKeysService, CompanyService, MembersService, TeamReferences],
})
export class MembersModule {}
