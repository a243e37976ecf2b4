import { Module } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { CompaniesRepository } from './companies.repository';
import { CompanyService } from './company.service';
import { MembersRepository } from './members.repository';
import { MemberViewsService } from './member-views.service';
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
    MemberViewsService,
    Passwords,
    TeamReferences,
  ],
  exports: [ApiKeysService, CompanyService, MembersService, MemberViewsService, TeamReferences],
})
export class MembersModule {}
