import { ExtraLabelKey, extraLabelsView } from './company-labels';
import { Company, TeamConfig, WorkingHours } from './entities/company.entity';

/**
 * The labels of the worker-input fields, `""` where unset: `extra_number_1_key` … `extra_text_4_key`,
 * as every job answer carries them.
 */
export type CompanyExtraLabels = { [K in ExtraLabelKey]: string };

/** The company as getcompany and editcompany answer it. */
export interface CompanyView extends CompanyExtraLabels {
  uid: string;
  /** The company account's (owner's) username. */
  username: string;
  type: 'company';
  name: string;
  email: string;
  phone: string;
  address: string;
  /** degrees (WGS84); null when not set */
  location: { lat: number; lng: number } | null;
  timezone: string;
  /** m */
  default_radius: number;
  working_hours: Company['workingHours'];
  workers_edit_job: boolean;
  workers_create_places: boolean;
  workers_view_places: boolean;
  /** s */
  checkin_dwell_seconds: number;
  /** min a member stays within 100 m for a stop (tracks and the stops reports): the company's, else the server's `TRACK_STOP_MINUTES` */
  stop_minutes: number;
  teams_config: Array<Omit<TeamConfig, 'working_hours'> & { working_hours: (WorkingHours & { source: 'team' | 'default' }) | null }>;
}

/** The company as answered; `defaultStopMinutes`: the server's `TRACK_STOP_MINUTES`, shown while the company has none of its own. */
export function toCompanyView(c: Company, ownerUsername: string, defaultStopMinutes: number): CompanyView {
  return {
    uid: c.id,
    username: ownerUsername,
    type: 'company',
    name: c.name,
    email: c.email,
    phone: c.phone,
    address: c.address,
    location: c.locationLat !== null && c.locationLng !== null ? { lat: c.locationLat, lng: c.locationLng } : null,
    timezone: c.timezone,
    default_radius: c.defaultRadius,
    working_hours: c.workingHours,
    workers_edit_job: c.workersEditJob,
    workers_create_places: c.workersCreatePlaces,
    workers_view_places: c.workersViewPlaces,
    checkin_dwell_seconds: c.checkinDwellSeconds,
    stop_minutes: c.stopMinutes ?? defaultStopMinutes,
    teams_config: c.teamsConfig.map((t) => ({
      ...t,
      working_hours: t.working_hours
        ? { ...t.working_hours, source: 'team' as const }
        : c.workingHours
          ? { ...c.workingHours, source: 'default' as const }
          : null,
    })),
    ...extraLabelsView(c.extraLabels ?? {}),
  };
}
