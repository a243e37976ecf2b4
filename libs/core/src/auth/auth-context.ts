import { Role } from './policy';

/** Company settings that widen or narrow worker rights (CONTRACTS.md, "Roles"). */
export interface WorkerSettings {
  workers_edit_job: boolean;
  workers_create_places: boolean;
  workers_view_places: boolean;
}

/**
 * Who is calling: the member an API key was issued to, with its company. Every domain service
 * scopes its queries by `companyId`.
 */
export interface AuthContext {
  companyId: string;
  memberId: string;
  username: string;
  role: Role;
  /** True for the company account (owner administrator). */
  isOwner: boolean;
  /** `fwk_xxxxxxxx` of the key used. */
  keyPrefix: string;
  /** IANA zone of the company: every "today" uses it. */
  timezone: string;
  settings: WorkerSettings;
}
