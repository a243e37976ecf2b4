import { h, perFrame } from '../dom';
import { Store } from '../store';
import { clockText } from '../time';

/**
 * The alerts feed: firings newest first (the day's from getalertfirings at sign-in, then live from
 * `alerttriggered` events), each entry `data-firing-id`; choosing one selects its member, whose dot is
 * ringed red on the map for two minutes.
 */
export class AlertsFeed {
  readonly el: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly redraw = perFrame(() => this.draw());

  constructor(
    private readonly store: Store,
    private readonly onPick: (uid: string) => void,
  ) {
    this.list = h('ol', { class: 'alerts', 'aria-live': 'polite', 'aria-relevant': 'additions' });
    this.el = h(
      'section',
      { class: 'panel alerts-panel', 'aria-labelledby': 'alerts-title' },
      h('h2', { id: 'alerts-title' }, 'Alerts'),
      this.list,
    );
    store.subscribe((c) => {
      if (c.topic === 'firings') this.redraw();
    });
  }

  draw(): void {
    const tz = this.store.session.timezone;
    const items = this.store.firings.slice(0, 200).map((f) => {
      const m = this.store.members.get(f.memberUid);
      return h(
        'li',
        { 'data-firing-id': f.firingId ?? undefined, 'data-event-id': f.eventId ?? undefined, 'data-member': f.memberUid },
        h(
          'button',
          { type: 'button', class: 'alert-entry', onclick: () => this.onPick(f.memberUid) },
          h('time', {}, clockText(f.ts, tz)),
          h('strong', {}, f.title || 'Alert'),
          h('span', {}, f.message),
          m ? h('span', { class: 'who' }, m.name || m.username) : null,
        ),
      );
    });
    this.list.replaceChildren(...(items.length ? items : [h('li', { class: 'empty' }, 'No alerts today.')]));
  }
}
