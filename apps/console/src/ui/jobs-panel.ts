import { h, perFrame } from '../dom';
import { byWorker, Job, progressOf, windowText } from '../model';
import { Store } from '../store';
import { clockText } from '../time';

/** What the panel asks the app to do (each goes through an ordinary action). */
export interface JobsPanelActions {
  openJob(id: string): void;
  /** `username` null = unassign */
  assign(jobId: string, username: string | null): void;
  optimise(username: string): void;
  distribute(regions: number): void;
  pickMember(uid: string): void;
}

/**
 * The day's jobs: a panel per worker with jobs, in route order (`number`), each row with its progress,
 * window and check-in/out times (test hooks `data-job-id`, `data-progress` with the connector's
 * values), and the unassigned jobs. Staff can reassign (a worker picker, or drag a row onto a member's
 * dot), optimise a route and split the unassigned jobs into regions. Redrawn at most once per frame.
 */
export class JobsPanel {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  readonly redraw = perFrame(() => this.draw());

  constructor(
    private readonly store: Store,
    private readonly actions: JobsPanelActions,
  ) {
    this.body = h('div', { class: 'jobs-body' });
    this.el = h(
      'section',
      { class: 'panel jobs-panel', 'aria-labelledby': 'jobs-title' },
      h('h2', { id: 'jobs-title' }, 'Jobs of the day'),
      this.body,
    );
    store.subscribe((c) => {
      if (c.topic === 'jobs' || c.topic === 'day' || c.topic === 'regions' || c.topic === 'selection') this.redraw();
      if (c.topic === 'members' && this.body.childElementCount === 0) this.redraw();
    });
  }

  /** Draws now (the first draw). */
  draw(): void {
    const { workers, unassigned } = byWorker(this.store.jobs.values());
    const sections: HTMLElement[] = [];
    const names = [...workers.keys()].sort((a, b) => this.workerName(a).localeCompare(this.workerName(b)));
    for (const username of names) sections.push(this.workerSection(username, workers.get(username)!));
    if (this.store.isStaff()) sections.push(this.unassignedSection(unassigned));
    if (!sections.length) sections.push(h('p', { class: 'empty' }, 'No jobs on this day.'));
    this.body.replaceChildren(...sections);
  }

  private workerName(username: string): string {
    const m = this.store.memberByUsername(username);
    return m ? m.name || m.username : username;
  }

  private workerSection(username: string, jobs: Job[]): HTMLElement {
    const member = this.store.memberByUsername(username);
    const id = `worker-${username.replace(/[^a-z0-9]/gi, '-')}`;
    const done = jobs.filter((j) => ['success', 'failed'].includes(progressOf(j))).length;
    return h(
      'section',
      {
        class: `worker${member && member.uid === this.store.selectedMember ? ' selected' : ''}`,
        'aria-labelledby': id,
        'data-worker': username,
      },
      h(
        'header',
        {},
        h(
          'h3',
          { id },
          member
            ? h('button', { type: 'button', class: 'link', onclick: () => this.actions.pickMember(member.uid) }, this.workerName(username))
            : username,
        ),
        h('span', { class: 'count' }, `${done}/${jobs.length} done`),
        h(
          'button',
          {
            type: 'button',
            class: 'small',
            onclick: () => this.actions.optimise(username),
            'aria-label': `Optimise ${this.workerName(username)}'s route`,
          },
          'Optimise route',
        ),
      ),
      h('ol', { class: 'job-rows' }, ...jobs.map((j) => this.row(j))),
    );
  }

  private unassignedSection(jobs: Job[]): HTMLElement {
    const regions = h('input', {
      type: 'number',
      name: 'regions',
      min: 1,
      max: 20,
      value: 2,
      'aria-label': 'Number of regions',
      class: 'regions-input',
    });
    return h(
      'section',
      { class: 'unassigned', 'aria-labelledby': 'unassigned-title' },
      h(
        'header',
        {},
        h('h3', { id: 'unassigned-title' }, `Unassigned (${jobs.length})`),
        jobs.length
          ? h(
              'form',
              {
                class: 'split',
                onsubmit: (e: Event) => {
                  e.preventDefault();
                  this.actions.distribute(Number(regions.value) || 2);
                },
              },
              regions,
              h('button', { type: 'submit', class: 'small' }, 'Split into regions'),
            )
          : null,
      ),
      h('ol', { class: 'job-rows' }, ...jobs.map((j) => this.row(j))),
    );
  }

  private row(j: Job): HTMLElement {
    const tz = this.store.session.timezone;
    const progress = progressOf(j);
    const times = [j.tsCheckIn ? `in ${clockText(j.tsCheckIn, tz)}` : '', j.tsCheckOut ? `out ${clockText(j.tsCheckOut, tz)}` : '']
      .filter(Boolean)
      .join(' · ');
    const staff = this.store.isStaff();
    const li = h(
      'li',
      {
        class: `job-row${this.store.selectedJob === j.id ? ' selected' : ''}`,
        'data-job-id': j.id,
        'data-progress': progress,
        'data-number': j.number,
        draggable: staff ? 'true' : undefined,
      },
      h('span', { class: 'num', 'aria-label': `stop ${j.number || 'unnumbered'}` }, j.number ? String(j.number) : '·'),
      h(
        'button',
        { type: 'button', class: 'link title', onclick: () => this.actions.openJob(j.id) },
        j.destinationName || j.destinationText || j.id,
      ),
      h('span', { class: `badge ${progress}` }, progress),
      h('span', { class: 'window', title: 'time window' }, windowText(j.windowStart, j.windowEnd)),
      h('span', { class: 'times' }, times),
      staff ? this.assignPicker(j) : null,
    );
    if (staff)
      li.addEventListener('dragstart', (e) => {
        e.dataTransfer?.setData('text/x-fieldwork-job', j.id);
        if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
      });
    return li;
  }

  private assignPicker(j: Job): HTMLSelectElement {
    const workers = [...this.store.members.values()]
      .filter((m) => m.role === 'worker')
      .sort((a, b) => (a.name || a.username).localeCompare(b.name || b.username));
    const current = j.worker?.toLowerCase() ?? '';
    const select = h(
      'select',
      { class: 'assign', 'aria-label': `Assign ${j.destinationName || j.id} to`, name: 'assign' },
      h('option', { value: '' }, 'Unassigned'),
      ...workers.map((m) => h('option', { value: m.username, selected: m.username.toLowerCase() === current }, m.name || m.username)),
    );
    select.addEventListener('change', () => this.actions.assign(j.id, select.value || null));
    return select;
  }
}
