import L from 'leaflet';
import { Member, STATE_COLOURS } from '../model';

const RADIUS = 6;
const FONT = '12px system-ui, sans-serif';

export interface MembersLayerSource {
  members(): Iterable<Member>;
  selected(): string | null;
  alerted(uid: string): boolean;
}

/**
 * Members as dots on one canvas, coloured by state, with name labels (greedy: a label that would
 * overlap one already drawn is skipped, the selected member's always drawn first). One redraw per
 * animation frame however many positions arrive, so 2,000 members moving stay smooth; the canvas
 * sits in its own pane and moves with the map while dragging, redrawn when a move or zoom ends.
 */
export class MembersLayer extends L.Layer {
  private canvas!: HTMLCanvasElement;
  private ctx!: CanvasRenderingContext2D;
  private queued = false;
  private origin = L.point(0, 0);

  constructor(private readonly source: MembersLayerSource) {
    super();
  }

  override onAdd(map: L.Map): this {
    const pane = map.getPane('members') ?? map.createPane('members');
    pane.style.zIndex = '450';
    pane.style.pointerEvents = 'none';
    this.canvas = L.DomUtil.create('canvas', 'members-canvas', pane);
    this.canvas.setAttribute('aria-hidden', 'true');
    this.ctx = this.canvas.getContext('2d')!;
    map.on('moveend zoomend resize viewreset', this.reset, this);
    map.on('zoomstart', this.hide, this);
    this.reset();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize viewreset', this.reset, this);
    map.off('zoomstart', this.hide, this);
    this.canvas.remove();
    return this;
  }

  /** Asks for a redraw at the next animation frame. */
  redraw(): void {
    if (this.queued || !this._map) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.draw();
    });
  }

  /** The member drawn nearest a container point, within `tolerance` px. */
  memberAt(point: L.Point, tolerance = 12): Member | null {
    let best: Member | null = null;
    let bestD = tolerance * tolerance;
    for (const m of this.source.members()) {
      if (m.lat === undefined || m.lng === undefined) continue;
      const p = this._map.latLngToContainerPoint([m.lat, m.lng]);
      const d = (p.x - point.x) ** 2 + (p.y - point.y) ** 2;
      if (d <= bestD) {
        best = m;
        bestD = d;
      }
    }
    return best;
  }

  private hide(): void {
    this.canvas.style.visibility = 'hidden';
  }

  private reset(): void {
    const map = this._map;
    if (!map) return;
    const size = map.getSize();
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(size.x * ratio);
    this.canvas.height = Math.round(size.y * ratio);
    this.canvas.style.width = `${size.x}px`;
    this.canvas.style.height = `${size.y}px`;
    this.origin = map.containerPointToLayerPoint([0, 0]);
    L.DomUtil.setPosition(this.canvas, this.origin);
    this.canvas.style.visibility = '';
    this.draw();
  }

  private draw(): void {
    const map = this._map;
    if (!map) return;
    const ctx = this.ctx;
    const ratio = window.devicePixelRatio || 1;
    const size = map.getSize();
    // the canvas was placed at `origin` (layer point of the container's corner when last reset)
    const shift = map.containerPointToLayerPoint([0, 0]).subtract(this.origin);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, size.x, size.y);
    ctx.translate(shift.x, shift.y);
    const selected = this.source.selected();
    const drawn: Array<{ m: Member; x: number; y: number }> = [];
    for (const m of this.source.members()) {
      if (m.lat === undefined || m.lng === undefined) continue;
      const p = map.latLngToContainerPoint([m.lat, m.lng]);
      if (p.x < -50 || p.y < -20 || p.x > size.x + 50 || p.y > size.y + 20) continue;
      drawn.push({ m, x: p.x, y: p.y });
    }
    for (const d of drawn) this.dot(d.m, d.x, d.y, d.m.uid === selected);
    this.labels(drawn, selected);
  }

  private dot(m: Member, x: number, y: number, selected: boolean): void {
    const ctx = this.ctx;
    if (this.source.alerted(m.uid)) {
      ctx.beginPath();
      ctx.arc(x, y, RADIUS + 7, 0, Math.PI * 2);
      ctx.strokeStyle = '#c62828';
      ctx.lineWidth = 3;
      ctx.stroke();
    }
    ctx.beginPath();
    ctx.arc(x, y, selected ? RADIUS + 2 : RADIUS, 0, Math.PI * 2);
    ctx.fillStyle = STATE_COLOURS[m.state];
    ctx.fill();
    ctx.lineWidth = selected ? 3 : 2;
    ctx.strokeStyle = selected ? '#111' : '#fff';
    ctx.stroke();
  }

  private labels(drawn: Array<{ m: Member; x: number; y: number }>, selected: string | null): void {
    const ctx = this.ctx;
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    // a label is drawn unless it would overlap one already drawn (a grid of 64-px cells finds the neighbours)
    const grid = new Map<number, Array<[number, number, number, number]>>();
    const cells = (b: [number, number, number, number]) => {
      const out: number[] = [];
      for (let cx = Math.floor(b[0] / 64); cx <= Math.floor((b[0] + b[2]) / 64); cx++)
        for (let cy = Math.floor(b[1] / 64); cy <= Math.floor((b[1] + b[3]) / 64); cy++) out.push(cx * 100_003 + cy);
      return out;
    };
    const overlaps = (a: number[], b: [number, number, number, number]) =>
      a.some((k) => (grid.get(k) ?? []).some((o) => o[0] < b[0] + b[2] && b[0] < o[0] + o[2] && o[1] < b[1] + b[3] && b[1] < o[1] + o[3]));
    const ordered = [...drawn.filter((d) => d.m.uid === selected), ...drawn.filter((d) => d.m.uid !== selected)];
    for (const d of ordered) {
      const text = d.m.name || d.m.username;
      // right of the dot, else left of it, else not at all (the selected member's always)
      const width = ctx.measureText(text).width + 6;
      let box: [number, number, number, number] = [d.x + RADIUS + 3, d.y - 8, width, 16];
      let keys = cells(box);
      if (d.m.uid !== selected && overlaps(keys, box)) {
        box = [d.x - RADIUS - 3 - width, d.y - 8, width, 16];
        keys = cells(box);
        if (overlaps(keys, box)) continue;
      }
      for (const k of keys) grid.set(k, [...(grid.get(k) ?? []), box]);
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillRect(box[0], box[1], box[2], box[3]);
      ctx.fillStyle = '#111';
      ctx.fillText(text, box[0] + 3, d.y);
    }
  }
}
