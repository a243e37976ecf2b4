import { h, replace } from '../dom';
import { jobTimeline, progressOf, windowText } from '../model';
import { Store } from '../store';
import { clockText } from '../time';

/**
 * A job's details: the fields a dispatcher reads and its events so far — its milestones from its own
 * timestamps (what happened before the console opened) merged with the live events seen since.
 */
export class JobDetails {
  readonly el: HTMLElement;

  constructor(
    private readonly store: Store,
    private readonly onClose: () => void,
  ) {
    this.el = h('section', { class: 'panel job-details', 'aria-labelledby': 'details-title', hidden: true });
    store.subscribe((c) => {
      if (
        c.topic === 'selection' ||
        c.topic === 'day' ||
        (c.topic === 'jobs' && this.store.selectedJob && c.ids.includes(this.store.selectedJob))
      )
        this.draw();
    });
  }

  draw(): void {
    const id = this.store.selectedJob;
    const job = id ? this.store.jobs.get(id) : undefined;
    this.el.hidden = !job;
    if (!job) return replace(this.el);
    const tz = this.store.session.timezone;
    const field = (label: string, value: string | number | undefined) =>
      value === undefined || value === '' || value === 0 ? null : [h('dt', {}, label), h('dd', {}, String(value))];
    const fields = [
      field('Progress', progressOf(job)),
      field('Worker', job.workerName || job.worker || 'unassigned'),
      field('Stop', job.number || undefined),
      field('Window', windowText(job.windowStart, job.windowEnd)),
      field('Address', job.destinationText),
      field('Place', job.placeName),
      field('Contact', [job.contactName, job.contactPhone].filter(Boolean).join(', ')),
      field('Priority', job.priority),
      field('On site', job.onSiteSeconds ? `${Math.round(job.onSiteSeconds / 60)} min` : undefined),
      field('Dispatcher notes', job.textDispatcher),
      field('Worker reply', job.textReceiver),
    ].flatMap((x) => x ?? []);
    const events = jobTimeline(job, this.store.jobEvents.get(job.id) ?? []);
    replace(
      this.el,
      h(
        'header',
        {},
        h('h2', { id: 'details-title' }, job.destinationName || job.id),
        h('button', { type: 'button', class: 'small', onclick: this.onClose, 'aria-label': 'Close job details' }, 'Close'),
      ),
      h('dl', {}, ...fields),
      h('h3', {}, 'Events so far'),
      h('ol', { class: 'timeline' }, ...events.map((e) => h('li', {}, h('time', {}, clockText(e.ts, tz)), ` ${e.label}`))),
    );
  }
}
