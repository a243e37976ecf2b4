/**
 * The notifications members write (CONTRACTS.md, "Members and company"): an invitation sent to the
 * invited member (saying only that it was sent), and the spec's member-list refresh as one
 * company-wide row.
 */
declare module '@app/core' {
  interface NotificationKinds {
    invitation_sent: { memberId: string; jobId?: null };
    members_changed: { memberId: null; jobId?: null };
  }
}

export {};
