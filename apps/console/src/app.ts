import { ActionError, Api } from './api';
import { h, perFrame } from './dom';
import { LiveEvents } from './live';
import { MapView, TileSettings } from './map/map-view';
import { Firing, Job, Place, routeOrder, Zone } from './model';
import { formatRoute, parseRoute } from './route';
import { Store } from './store';
import { openStream, StreamState } from './stream';
import { dayAt, dayBounds, dayToIso, isoToDay } from './time';
import { AlertsFeed } from './ui/alerts-feed';
import { JobDetails } from './ui/job-details';
import { JobsPanel } from './ui/jobs-panel';
import { MemberList } from './ui/member-list';

const STREAM_TEXT: Record<StreamState, string> = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
  closed: 'offline',
};

/**
 * The signed-in console: loads the caller, the company's time zone and the day (jobs, members, places,
 * zones, today's alert firings) through the ordinary actions, opens the live stream, draws the day and
 * marks `day-drawn`, then keeps everything live and acts through the actions (assign, optimise, split).
 */
export class ConsoleApp {
  private readonly store = new Store();
  private readonly api: Api;
  private map!: MapView;
  private jobsPanel!: JobsPanel;
  private live!: LiveEvents;
  private stopStream?: () => void;
  private status!: HTMLElement;
  private streamState!: HTMLElement;
  private dayInput!: HTMLInputElement;
  private trackRequest = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly key: string,
    private readonly tiles: TileSettings,
    private readonly signOut: (error?: string) => void,
  ) {
    this.api = new Api(key);
  }

  async start(): Promise<void> {
    let who: Awaited<ReturnType<Api['whoami']>>;
    try {
      who = await this.api.whoami();
    } catch (e) {
      return this.signOut(
        e instanceof ActionError && e.http === 401
          ? 'That API key was refused (unknown, revoked or its member deactivated).'
          : `Could not sign in: ${(e as Error).message}`,
      );
    }
    const { company } = await this.api.action<{ company: { name: string; timezone: string } }>('getcompany', {});
    this.store.session = {
      memberUid: who.member.id,
      username: who.member.username,
      name: who.member.name,
      role: who.member.role,
      companyName: company.name,
      timezone: company.timezone || 'UTC',
    };
    const route = parseRoute(location.pathname);
    const day = route.day ?? dayAt(Date.now(), this.store.session.timezone);
    this.layout(day);
    this.live = new LiveEvents(this.store, this.api);
    this.stopStream = openStream(this.key, {
      onEvent: (event, data) => this.live.handle(event, data),
      onState: (state, detail) => this.setStreamState(state, detail),
      onRefused: (message) => this.signOut(`The stream refused the key: ${message}`),
    });
    const [, places, zones] = await Promise.all([
      this.loadDay(day),
      this.loadMembers(),
      this.loadPlaces(),
      this.loadZones(),
      this.loadFirings(),
    ]).then(([jobs, , places, zones]) => [jobs, places, zones] as const);
    this.store.places = places;
    this.store.zones = zones;
    // positions come from the stream's snapshot; draw without them if it is slow to come
    await Promise.race([this.live.firstSnapshot, new Promise((r) => setTimeout(r, 3000))]);
    this.drawDay(route.member, route.job);
  }

  /** Everything drawn once, then `performance.mark('day-drawn')` after the frame that paints it. */
  private drawDay(member: string | null, job: string | null): void {
    this.map.drawGeo(this.store.places, this.store.zones);
    this.drawJobsOnMap();
    this.jobsPanel.draw();
    this.map.fitOnce();
    this.map.members.redraw();
    if (member && this.store.members.has(member)) this.selectMember(member);
    if (job && this.store.jobs.has(job)) this.openJob(job);
    requestAnimationFrame(() => {
      performance.mark('day-drawn');
      document.body.dataset.day = 'drawn';
    });
  }

  private layout(day: number): void {
    const s = this.store.session;
    this.dayInput = h('input', { type: 'date', id: 'day', name: 'day', value: dayToIso(day) });
    this.dayInput.addEventListener('change', () => {
      const d = isoToDay(this.dayInput.value);
      if (d) void this.changeDay(d);
    });
    this.streamState = h('span', { class: 'stream-state', role: 'status', 'aria-live': 'polite' }, STREAM_TEXT.connecting);
    this.status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    const mapEl = h('div', { id: 'map', class: 'map', role: 'region', 'aria-label': 'Map of members, jobs, places and zones' });
    const memberList = new MemberList(this.store, (uid) => this.selectMember(uid));
    const alerts = new AlertsFeed(this.store, (uid) => this.selectMember(uid));
    const details = new JobDetails(this.store, () => this.openJob(null));
    this.jobsPanel = new JobsPanel(this.store, {
      openJob: (id) => this.openJob(id),
      assign: (id, username) => void this.assign(id, username),
      optimise: (username) => void this.optimise(username),
      distribute: (n) => void this.distribute(n),
      pickMember: (uid) => this.selectMember(uid),
    });
    const header = h(
      'header',
      { class: 'top' },
      h('h1', {}, 'Fieldwork', h('span', { class: 'company' }, s.companyName)),
      h(
        'div',
        { class: 'day-picker' },
        h('label', { for: 'day' }, 'Day'),
        this.dayInput,
        h('button', { type: 'button', class: 'small', onclick: () => void this.changeDay(dayAt(Date.now(), s.timezone)) }, 'Today'),
      ),
      this.streamState,
      h('span', { class: 'who' }, `${s.name || s.username} (${s.role})`),
      h('button', { type: 'button', class: 'small', onclick: () => this.close() }, 'Sign out'),
    );
    this.root.replaceChildren(
      h(
        'div',
        { class: 'shell' },
        header,
        h('nav', { class: 'left', 'aria-label': 'Members and alerts' }, memberList.el, alerts.el),
        h('main', { class: 'center' }, mapEl, this.status),
        h('aside', { class: 'right', 'aria-label': 'Jobs' }, details.el, this.jobsPanel.el),
      ),
    );
    this.map = new MapView(
      mapEl,
      this.store,
      this.tiles,
      (uid) => this.selectMember(uid),
      (jobId, uid) => {
        const m = this.store.members.get(uid);
        if (m) void this.assign(jobId, m.username);
      },
    );
    const drawJobs = perFrame(() => this.drawJobsOnMap());
    this.store.subscribe((c) => {
      if (c.topic === 'members' || c.topic === 'selection') this.map.members.redraw();
      if (c.topic === 'jobs' || c.topic === 'day' || c.topic === 'regions' || c.topic === 'selection') drawJobs();
    });
    memberList.drawAll();
    alerts.draw();
  }

  private drawJobsOnMap(): void {
    this.map.drawJobs(this.store.jobs.values(), this.store.regions, (id) => this.openJob(id));
    const m = this.store.selectedMember ? this.store.members.get(this.store.selectedMember) : undefined;
    this.map.drawRoute(
      m ? routeOrder([...this.store.jobs.values()].filter((j) => j.worker?.toLowerCase() === m.username.toLowerCase())) : [],
    );
  }

  private async loadDay(day: number): Promise<void> {
    const { jobs } = await this.api.action<{ jobs: Job[] }>('getjobs', { day, worker: '*' });
    this.store.setJobs(day, jobs);
  }

  private async loadMembers(): Promise<void> {
    const s = this.store.session;
    if (!this.store.isStaff()) return this.store.putMembers([{ uid: s.memberUid, username: s.username, name: s.name, role: s.role }]);
    const { accounts } = await this.api.action<{ accounts: Array<{ uid: string; username: string; name: string; role: string }> }>(
      'getaccounts',
      {},
    );
    this.store.putMembers(accounts.map((a) => ({ uid: a.uid, username: a.username, name: a.name, role: a.role })));
  }

  private loadPlaces(): Promise<Place[]> {
    return this.api.action<{ places: Place[] }>('getplaces', { max: 5000 }).then(
      (a) => a.places,
      () => [],
    );
  }

  private loadZones(): Promise<Zone[]> {
    return this.api.action<{ zones: Zone[] }>('getzones', {}).then(
      (a) => a.zones,
      () => [],
    );
  }

  /** Today's firings (staff only: getalertfirings is theirs), named by their rules' titles. */
  private async loadFirings(): Promise<void> {
    if (!this.store.isStaff()) return;
    const since = dayBounds(dayAt(Date.now(), this.store.session.timezone), this.store.session.timezone).from;
    type Firings = { firings: Array<{ id: string; ruleId: string; memberUid: string; message: string; ts: number }> };
    type Rules = { alerts: Array<{ id: string; title: string }> };
    const [{ firings }, { alerts }] = await Promise.all([
      this.api.action<Firings>('getalertfirings', { since, limit: 200 }),
      this.api.action<Rules>('getalerts', {}),
    ]).catch((): [Firings, Rules] => [{ firings: [] }, { alerts: [] }]);
    const titles = new Map(alerts.map((a) => [a.id, a.title]));
    for (const f of firings.reverse()) {
      const firing: Firing = {
        firingId: f.id,
        eventId: null,
        ruleId: f.ruleId,
        memberUid: f.memberUid,
        title: titles.get(f.ruleId) ?? 'Alert',
        message: f.message,
        ts: f.ts,
      };
      this.store.addFiring(firing);
    }
  }

  private async changeDay(day: number): Promise<void> {
    this.dayInput.value = dayToIso(day);
    await this.guard('getjobs', () => this.loadDay(day));
    this.store.select(this.store.selectedMember, null);
    this.refreshTrack();
    this.navigate();
  }

  selectMember(uid: string): void {
    this.store.select(uid, this.store.selectedJob);
    const m = this.store.members.get(uid);
    if (m?.lat !== undefined && m.lng !== undefined) this.map.focus(m.lat, m.lng);
    this.refreshTrack();
    this.navigate();
  }

  openJob(id: string | null): void {
    this.store.select(this.store.selectedMember, id);
    this.navigate();
  }

  /** The selected member's track of the day shown (gettracks). */
  private refreshTrack(): void {
    const uid = this.store.selectedMember;
    const request = ++this.trackRequest;
    if (!uid) return this.map.drawTrack([]);
    const { from, until } = dayBounds(this.store.day, this.store.session.timezone);
    void this.api
      .action<{ tracks: Array<{ short_encoded: string }> }>('gettracks', { uids: [uid], from, until: Math.min(until, Date.now() + 60_000) })
      .then(
        (a) => request === this.trackRequest && this.map.drawTrack(a.tracks.map((t) => t.short_encoded).filter(Boolean)),
        () => request === this.trackRequest && this.map.drawTrack([]),
      );
  }

  private async assign(jobId: string, username: string | null): Promise<void> {
    const job = this.store.jobs.get(jobId);
    await this.guard('editjobs', async () => {
      const { jobs } = await this.api.action<{ jobs: Job[] }>('editjobs', {
        jobs: { [jobId]: username ? { worker: username } : { receiverUid: '' } },
      });
      this.store.putJobs(jobs);
      const who = username ? (this.store.memberByUsername(username)?.name ?? username) : 'nobody';
      this.say(`${job?.destinationName ?? jobId} assigned to ${who}.`);
    });
  }

  private async optimise(username: string): Promise<void> {
    await this.guard('optimizeroute', async () => {
      const { jobs } = await this.api.action<{ jobs: Job[] }>('optimizeroute', { day: this.store.day, account: username });
      this.store.putJobs(jobs);
      const m = this.store.memberByUsername(username);
      if (m && this.store.selectedMember !== m.uid) this.selectMember(m.uid);
      this.say(`Route of ${m?.name ?? username} optimised: ${jobs.length} stop${jobs.length === 1 ? '' : 's'} in a new order.`);
    });
  }

  private async distribute(regions: number): Promise<void> {
    const ids = [...this.store.jobs.values()].filter((j) => !j.worker).map((j) => j.id);
    if (!ids.length) return this.say('No unassigned jobs to split.');
    await this.guard('distributejobs', async () => {
      const { clusters } = await this.api.action<{ clusters: Array<{ center_lat: number; center_lng: number; jobs: string[] }> }>(
        'distributejobs',
        {
          jobs: Object.fromEntries(ids.map((id) => [id, {}])),
          regions: Math.min(regions, ids.length),
        },
      );
      this.store.regions = clusters.map((c) => ({ center: { lat: c.center_lat, lng: c.center_lng }, jobs: c.jobs }));
      this.store.emit({ topic: 'regions' });
      this.say(`${ids.length} unassigned jobs split into ${clusters.length} regions (coloured on the map).`);
    });
  }

  /** Runs an action, telling the user when it is refused (the server's sentence names the field and rule). */
  private async guard(action: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.say(e instanceof ActionError ? `${action} refused: ${e.message}` : `${action} failed: ${(e as Error).message}`, true);
    }
  }

  private say(text: string, error = false): void {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }

  private setStreamState(state: StreamState, detail?: string): void {
    document.body.dataset.stream = state;
    if (!this.streamState) return;
    this.streamState.textContent = STREAM_TEXT[state];
    this.streamState.title = detail ?? '';
    this.streamState.className = `stream-state ${state}`;
  }

  private navigate(): void {
    const path = formatRoute({
      day: this.store.day,
      job: this.store.selectedJob,
      member: this.store.selectedJob ? null : this.store.selectedMember,
    });
    if (path !== location.pathname) history.replaceState(null, '', path);
  }

  private close(): void {
    this.stopStream?.();
    this.signOut();
  }
}
