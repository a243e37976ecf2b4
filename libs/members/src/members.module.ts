import { Module } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { CompaniesRepository } from './companies.repository';
import { CompanyService } from './company.service';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';
import { Passwords } from './passwords.service';
import { TeamReferences } from './team-references.service';

/** Company, members and API keys. */
@Module({
  providers: [
    ApiKeysRepository,
    CompaniesRepository,
    MembersRepository,
    ApiKeysService,
    CompanyService,
    MembersService,
    Passwords,
    TeamReferences,
  ],
  exports: [ApiKeysService, CompanyService, MembersService, TeamReferences],
})
export class MembersModule {}
