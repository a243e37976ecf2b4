import { CreateFoundation1795298701562 } from './1795298701562-CreateFoundation';
import { CreateJobs1795299635861 } from './1795299635861-CreateJobs';
import { CreateWebhooks1795300411031 } from './1795300411031-CreateWebhooks';
import { WebhookBatchClaim1795400000000 } from './1795400000000-WebhookBatchClaim';
import { AddPlaceLocation1795500000000 } from './1795500000000-AddPlaceLocation';
import { CreateWorkerRuns1795510000000 } from './1795510000000-CreateWorkerRuns';
import { AddWebhookBatchSecrets1795530000000 } from './1795530000000-AddWebhookBatchSecrets';
import { CreateLocations1795600000000 } from './1795600000000-CreateLocations';
import { AddPlaceFields1795610000000 } from './1795610000000-AddPlaceFields';
import { AddPlacesCompanyLocationIndex1795660000000 } from './1795660000000-AddPlacesCompanyLocationIndex';
import { AddTrackBuildState1795720000000 } from './1795720000000-AddTrackBuildState';
import { AddCompanyLocation1795700000000 } from './1795700000000-AddCompanyLocation';
import { CreateClusterMaps1795705000000 } from './1795705000000-CreateClusterMaps';
import { CreateZonesAndAlerts1795730000000 } from './1795730000000-CreateZonesAndAlerts';
import { CreateAlertMemberStates1795750000000 } from './1795750000000-CreateAlertMemberStates';
import { CreateReportChunks1795800000000 } from './1795800000000-CreateReportChunks';
import { AddMemberLateFixCount1795820000000 } from './1795820000000-AddMemberLateFixCount';
import { TrackLinesLz41795830000000 } from './1795830000000-TrackLinesLz4';
import { AddOutboxSequence1795900000000 } from './1795900000000-AddOutboxSequence';
import { AddCompanyStopMinutes1795920000000 } from './1795920000000-AddCompanyStopMinutes';
import { JobsDayIndexesEndWithNumber1795926000000 } from './1795926000000-JobsDayIndexesEndWithNumber';
import { WidenPhoneColumns1795930000000 } from './1795930000000-WidenPhoneColumns';
import { AddCommitStamps1796042700000 } from './1796042700000-AddCommitStamps';
import { CreateWebhookSubscriptions1796047300000 } from './1796047300000-CreateWebhookSubscriptions';
import { AddCompanyExtraLabels1796047310000 } from './1796047310000-AddCompanyExtraLabels';
import { AddClusterMapRegions1796047320000 } from './1796047320000-AddClusterMapRegions';
import { HookClaimStampedAt1796050000000 } from './1796050000000-HookClaimStampedAt';
import { ClaimsNameTheirWorker1796060042000 } from './1796060042000-ClaimsNameTheirWorker';
import { ClaimsJoinOnCompany1796070100000 } from './1796070100000-ClaimsJoinOnCompany';
import { CompanyLeadsPrimaryKeys1796070200000 } from './1796070200000-CompanyLeadsPrimaryKeys';
import { BatchClaimNamesCompany1796070300000 } from './1796070300000-BatchClaimNamesCompany';
import { CreateGlobalLookups1796071000000 } from './1796071000000-CreateGlobalLookups';
import { AddRunReadLsn1796080000000 } from './1796080000000-AddRunReadLsn';
import { ClaimsUpdateByKey1796090000000 } from './1796090000000-ClaimsUpdateByKey';
import { JobsCompanyStatsOff1796100000000 } from './1796100000000-JobsCompanyStatsOff';
import { BatchClaimByRow1796110000000 } from './1796110000000-BatchClaimByRow';
import { ClaimOnlyWhenFree1796120000000 } from './1796120000000-ClaimOnlyWhenFree';
import { HookClaimOnlyWhenFree1796130000000 } from './1796130000000-HookClaimOnlyWhenFree';

/** Every migration, in order (listed explicitly: STYLE.md §12). */
export const MIGRATIONS = [
  CreateFoundation1795298701562,
  CreateJobs1795299635861,
  CreateWebhooks1795300411031,
  WebhookBatchClaim1795400000000,
  AddPlaceLocation1795500000000,
  CreateWorkerRuns1795510000000,
  AddWebhookBatchSecrets1795530000000,
  CreateLocations1795600000000,
  AddPlaceFields1795610000000,
  AddPlacesCompanyLocationIndex1795660000000,
  AddCompanyLocation1795700000000,
  CreateClusterMaps1795705000000,
  AddTrackBuildState1795720000000,
  CreateZonesAndAlerts1795730000000,
  CreateAlertMemberStates1795750000000,
  CreateReportChunks1795800000000,
  AddMemberLateFixCount1795820000000,
  TrackLinesLz41795830000000,
  AddOutboxSequence1795900000000,
  AddCompanyStopMinutes1795920000000,
  JobsDayIndexesEndWithNumber1795926000000,
  WidenPhoneColumns1795930000000,
  AddCommitStamps1796042700000,
  CreateWebhookSubscriptions1796047300000,
  AddCompanyExtraLabels1796047310000,
  AddClusterMapRegions1796047320000,
  HookClaimStampedAt1796050000000,
  ClaimsNameTheirWorker1796060042000,
  ClaimsJoinOnCompany1796070100000,
  CompanyLeadsPrimaryKeys1796070200000,
  BatchClaimNamesCompany1796070300000,
  CreateGlobalLookups1796071000000,
  AddRunReadLsn1796080000000,
  ClaimsUpdateByKey1796090000000,
  JobsCompanyStatsOff1796100000000,
  BatchClaimByRow1796110000000,
  ClaimOnlyWhenFree1796120000000,
  HookClaimOnlyWhenFree1796130000000,
];
