import { h, perFrame } from '../dom';
import { Member } from '../model';
import { Store } from '../store';

/**
 * The member list beside the map: an entry per member with the test hooks `data-member-uid`,
 * `data-state` and `data-lat` / `data-lng` (the position last drawn). Updates are coalesced to one per
 * animation frame, and only changed entries are touched.
 */
export class MemberList {
  readonly el: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly entries = new Map<string, HTMLLIElement>();
  private readonly dirty = new Set<string>();
  private readonly flush = perFrame(() => this.update());

  constructor(
    private readonly store: Store,
    private readonly onPick: (uid: string) => void,
  ) {
    this.list = h('ul', { class: 'members', 'aria-label': 'Members' });
    this.el = h(
      'section',
      { class: 'panel members-panel', 'aria-labelledby': 'members-title' },
      h('h2', { id: 'members-title' }, 'Members'),
      this.list,
    );
    store.subscribe((c) => {
      if (c.topic === 'members') {
        for (const uid of c.uids) this.dirty.add(uid);
        this.flush();
      } else if (c.topic === 'selection') {
        for (const uid of this.entries.keys()) this.dirty.add(uid);
        this.flush();
      }
    });
  }

  /** Draws every member now (the first draw; later ones come per frame). */
  drawAll(): void {
    for (const uid of this.store.members.keys()) this.dirty.add(uid);
    this.update();
  }

  private update(): void {
    let added = false;
    for (const uid of this.dirty) {
      const m = this.store.members.get(uid);
      if (!m) continue;
      let li = this.entries.get(uid);
      if (!li) {
        li = this.entry(m);
        this.entries.set(uid, li);
        added = true;
      }
      this.refresh(li, m);
    }
    this.dirty.clear();
    if (added)
      this.list.replaceChildren(
        ...[...this.entries.entries()].sort((a, b) => this.nameOf(a[0]).localeCompare(this.nameOf(b[0]))).map(([, li]) => li),
      );
  }

  private nameOf(uid: string): string {
    const m = this.store.members.get(uid);
    return m ? m.name || m.username : uid;
  }

  private entry(m: Member): HTMLLIElement {
    const button = h(
      'button',
      { type: 'button', class: 'member-button', onclick: () => this.onPick(m.uid) },
      h('span', { class: 'dot', 'aria-hidden': 'true' }),
      h('span', { class: 'name' }),
      h('span', { class: 'state' }),
    );
    return h('li', { 'data-member-uid': m.uid }, button);
  }

  private refresh(li: HTMLLIElement, m: Member): void {
    const alerted = (this.store.alerted.get(m.uid) ?? 0) > Date.now();
    if (li.dataset.state !== m.state) li.dataset.state = m.state;
    if (m.lat !== undefined && m.lng !== undefined) {
      li.dataset.lat = String(m.lat);
      li.dataset.lng = String(m.lng);
    }
    li.classList.toggle('selected', this.store.selectedMember === m.uid);
    li.classList.toggle('alerted', alerted);
    const button = li.firstElementChild as HTMLButtonElement;
    button.setAttribute('aria-pressed', String(this.store.selectedMember === m.uid));
    const name = m.name || m.username;
    const nameEl = button.children[1] as HTMLElement;
    if (nameEl.textContent !== name) nameEl.textContent = name;
    const stateText = m.lat === undefined ? 'not located' : alerted ? `${m.state}, alert` : m.state;
    const stateEl = button.children[2] as HTMLElement;
    if (stateEl.textContent !== stateText) stateEl.textContent = stateText;
  }
}
