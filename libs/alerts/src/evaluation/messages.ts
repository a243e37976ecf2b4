/**
 * The firing's `message` (spec "Events": generated text): one sentence a dispatcher can read, times as
 * HH:MM (24 h) in the company's time zone. Pure: the names and the zone are given.
 */

/** What a firing says, by kind. `ts` ms. */
export type AlertFacts =
  | { kind: 'check'; checkType: 'IN' | 'OUT'; placeName: string; ts: number }
  | { kind: 'zone'; move: 'in' | 'out'; danger: boolean; zoneName: string; ts: number }
  | { kind: 'deadline'; check: 'in' | 'out' | 'any'; placeName?: string; deadline: number }
  | { kind: 'idle'; since: number; intervalMs: number }
  | { kind: 'no_connection'; lastTs: number; intervalMs: number }
  | { kind: 'battery'; bat: number; ts: number };

const clocks = new Map<string, Intl.DateTimeFormat>();

/** HH:MM (24 h) of instant `ms` in time zone `zone` (IANA). */
export function hhmmIn(ms: number, zone: string): string {
  let f = clocks.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(zone, f);
  }
  return f.format(new Date(ms));
}

/** A duration for people: `45 min`, `2 h`, `1 h 30 min` (whole minutes, rounded down; at least 1 min). */
export function durationText(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/**
 * The sentence for `facts` about the member named `memberName`, times in `zone`:
 * - check: "Luka Novak checked in at Warehouse at 08:02" / "… checked out of Warehouse at 17:40"
 * - zone: "Luka Novak entered zone North depot at 14:05" / "… left zone North depot at 14:05";
 *   a danger zone: "… entered danger zone Quarry at 14:05"
 * - deadline: "Luka Novak has not checked in by 09:00" (`at Warehouse` when the rule names a place;
 *   "checked out", "checked in or out")
 * - idle: "Luka Novak has been idle for 30 min since 13:10"
 * - no connection: "Luka Novak's device has sent nothing for 15 min (last at 13:10)"
 * - battery: "Luka Novak's battery is at 12 % (13:10)"
 */
export function alertMessage(memberName: string, facts: AlertFacts, zone: string): string {
  const at = (ms: number) => hhmmIn(ms, zone);
  switch (facts.kind) {
    case 'check':
      return facts.checkType === 'IN'
        ? `${memberName} checked in at ${facts.placeName} at ${at(facts.ts)}`
        : `${memberName} checked out of ${facts.placeName} at ${at(facts.ts)}`;
    case 'zone':
      return `${memberName} ${facts.move === 'in' ? 'entered' : 'left'} ${facts.danger ? 'danger zone' : 'zone'} ${facts.zoneName} at ${at(facts.ts)}`;
    case 'deadline': {
      const what = facts.check === 'in' ? 'checked in' : facts.check === 'out' ? 'checked out' : 'checked in or out';
      const where = facts.placeName ? ` at ${facts.placeName}` : '';
      return `${memberName} has not ${what}${where} by ${at(facts.deadline)}`;
    }
    case 'idle':
      return `${memberName} has been idle for ${durationText(facts.intervalMs)} since ${at(facts.since)}`;
    case 'no_connection':
      return `${memberName}'s device has sent nothing for ${durationText(facts.intervalMs)} (last at ${at(facts.lastTs)})`;
    case 'battery':
      return `${memberName}'s battery is at ${facts.bat} % (${at(facts.ts)})`;
  }
}
