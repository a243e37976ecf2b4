import L from 'leaflet';
import { decode } from '@mapbox/polyline';
import { Job, MEMBER_STATES, PALETTE, Place, progressOf, Region, STATE_COLOURS, Zone } from '../model';
import { Store } from '../store';
import { MembersLayer } from './members-layer';

const PROGRESS_COLOURS: Record<string, string> = {
  scheduled: '#607d8b',
  accepted: '#0277bd',
  rejected: '#6a1b9a',
  started: '#f9a825',
  success: '#2e7d32',
  failed: '#c62828',
};

/** Tiles from the page's settings (`CONSOLE_TILE_URL`), or none: a plain background. */
export interface TileSettings {
  url: string;
  attribution: string;
}

/**
 * The map (Leaflet, canvas renderer): members ({@link MembersLayer}), places as circles of their
 * radius, zones as polygons (danger zones red and dashed), the day's jobs as dots coloured by progress
 * (or by region after a split), and for the selected member the day's track and route (jobs in
 * `number` order joined by a line, numbered). Without tiles the background is plain and the scale bar
 * still tells distances.
 */
export class MapView {
  readonly map: L.Map;
  readonly members: MembersLayer;
  private readonly renderer = L.canvas({ padding: 0.3 });
  private readonly geo = L.layerGroup();
  private readonly jobs = L.layerGroup();
  private readonly route = L.layerGroup();
  private readonly track = L.layerGroup();
  private readonly legend: HTMLElement;
  private fitted = false;

  constructor(
    el: HTMLElement,
    private readonly store: Store,
    tiles: TileSettings,
    onPickMember: (uid: string) => void,
    onDropJob: (jobId: string, memberUid: string) => void,
  ) {
    this.map = L.map(el, { preferCanvas: true, zoomControl: true, attributionControl: true, keyboard: true }).setView([45.8, 15.9], 5);
    this.map.attributionControl.setPrefix(false);
    if (tiles.url) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(this.map);
    else el.classList.add('no-tiles');
    L.control.scale({ imperial: false }).addTo(this.map);
    for (const layer of [this.geo, this.jobs, this.track, this.route]) layer.addTo(this.map);
    this.members = new MembersLayer({
      members: () => store.members.values(),
      selected: () => store.selectedMember,
      alerted: (uid) => (store.alerted.get(uid) ?? 0) > Date.now(),
    }).addTo(this.map) as MembersLayer;
    this.map.on('click', (e: L.LeafletMouseEvent) => {
      const m = this.members.memberAt(e.containerPoint);
      if (m) onPickMember(m.uid);
    });
    // a job dragged from the panel and dropped on a member's dot assigns it to that member
    el.addEventListener('dragover', (e) => {
      if (e.dataTransfer?.types.includes('text/x-fieldwork-job')) e.preventDefault();
    });
    el.addEventListener('drop', (e) => {
      const id = e.dataTransfer?.getData('text/x-fieldwork-job');
      if (!id) return;
      e.preventDefault();
      const m = this.members.memberAt(this.map.mouseEventToContainerPoint(e), 24);
      if (m) onDropJob(id, m.uid);
    });
    this.legend = L.DomUtil.create('div', 'legend');
    const Legend = L.Control.extend({ onAdd: () => this.legend });
    new Legend({ position: 'bottomright' }).addTo(this.map);
    this.drawLegend();
  }

  /** Places and zones. */
  drawGeo(places: Place[], zones: Zone[]): void {
    this.geo.clearLayers();
    for (const z of zones) {
      const rings = z.polygon.coordinates.map((ring) => ring.map(([lng, lat]) => L.latLng(lat, lng)));
      const colour = z.danger ? '#c62828' : z.color || '#6d4c41';
      L.polygon(rings, {
        renderer: this.renderer,
        color: colour,
        weight: z.danger ? 3 : 2,
        dashArray: z.danger ? '8 6' : undefined,
        fillOpacity: z.danger ? 0.18 : 0.08,
      })
        .bindTooltip(`${z.danger ? '⚠ danger zone: ' : 'zone: '}${z.name}`, { sticky: true })
        .addTo(this.geo);
    }
    for (const p of places) {
      if (!p.location) continue;
      L.circle([p.location.lat, p.location.lng], {
        renderer: this.renderer,
        radius: Math.max(p.radius, 5),
        color: p.color || '#00838f',
        weight: 1.5,
        fillOpacity: 0.12,
      })
        .bindTooltip(`place: ${p.name}`, { sticky: true })
        .addTo(this.geo);
    }
  }

  /** The day's jobs as dots, coloured by progress, or by region when `regions` is not empty. */
  drawJobs(jobs: Iterable<Job>, regions: Region[], onPick: (id: string) => void): void {
    this.jobs.clearLayers();
    const regionOf = new Map<string, number>();
    regions.forEach((r, i) => r.jobs.forEach((id) => regionOf.set(id, i)));
    for (const j of jobs) {
      if (j.destinationLat === null || j.destinationLng === null) continue;
      const region = regionOf.get(j.id);
      const colour = region !== undefined ? PALETTE[region % PALETTE.length] : PROGRESS_COLOURS[progressOf(j)];
      L.circleMarker([j.destinationLat, j.destinationLng], {
        renderer: this.renderer,
        radius: region !== undefined ? 8 : 5,
        color: '#263238',
        weight: 1,
        fillColor: colour,
        fillOpacity: 0.9,
      })
        .bindTooltip(`${j.destinationName}${region !== undefined ? ` (region ${region + 1})` : ''}`)
        .on('click', () => onPick(j.id))
        .addTo(this.jobs);
    }
    regions.forEach((r, i) =>
      L.circleMarker([r.center.lat, r.center.lng], {
        renderer: this.renderer,
        radius: 4,
        color: PALETTE[i % PALETTE.length],
        weight: 3,
        fill: false,
      })
        .bindTooltip(`region ${i + 1}: centre`)
        .addTo(this.jobs),
    );
    this.drawLegend(regions);
  }

  /** The selected member's route: their jobs in route order, numbered, joined by a line (empty list clears). */
  drawRoute(jobs: Job[]): void {
    this.route.clearLayers();
    const points = jobs
      .filter((j) => j.destinationLat !== null && j.destinationLng !== null)
      .map((j) => L.latLng(j.destinationLat!, j.destinationLng!));
    if (points.length > 1) L.polyline(points, { color: '#1f4e79', weight: 4, opacity: 0.85 }).addTo(this.route);
    jobs.forEach((j) => {
      if (j.destinationLat === null || j.destinationLng === null) return;
      L.marker([j.destinationLat, j.destinationLng], {
        icon: L.divIcon({ className: 'route-stop', html: String(j.number || '·'), iconSize: [22, 22] }),
        keyboard: false,
        interactive: false,
      }).addTo(this.route);
    });
  }

  /** Tracks (gettracks' entries, `short_encoded` polylines). */
  drawTrack(encoded: string[]): void {
    this.track.clearLayers();
    for (const e of encoded) L.polyline(decode(e) as L.LatLngTuple[], { color: '#ad1457', weight: 3, opacity: 0.7 }).addTo(this.track);
  }

  /** Fits the view to everything drawn, once (the first time there is something). */
  fitOnce(): void {
    if (this.fitted) return;
    const bounds = L.latLngBounds([]);
    for (const m of this.store.members.values()) if (m.lat !== undefined && m.lng !== undefined) bounds.extend([m.lat, m.lng]);
    for (const j of this.store.jobs.values())
      if (j.destinationLat !== null && j.destinationLng !== null) bounds.extend([j.destinationLat, j.destinationLng]);
    for (const p of this.store.places) if (p.location) bounds.extend([p.location.lat, p.location.lng]);
    if (!bounds.isValid()) return;
    this.fitted = true;
    this.map.fitBounds(bounds.pad(0.15), { maxZoom: 16, animate: false });
  }

  /** Centres a member (selection from the list). */
  focus(lat: number, lng: number): void {
    this.map.panTo([lat, lng], { animate: false });
  }

  private drawLegend(regions: Region[] = []): void {
    this.legend.replaceChildren();
    const section = (title: string, rows: Array<[string, string]>) => {
      const div = L.DomUtil.create('div', 'legend-section', this.legend);
      L.DomUtil.create('strong', '', div).textContent = title;
      for (const [colour, text] of rows) {
        const r = L.DomUtil.create('div', 'legend-row', div);
        L.DomUtil.create('span', 'swatch', r).style.background = colour;
        r.append(text);
      }
    };
    section(
      'Members',
      MEMBER_STATES.map((s) => [STATE_COLOURS[s], s]),
    );
    section('Jobs', [
      ...Object.entries(PROGRESS_COLOURS).map(([p, c]): [string, string] => [c, p]),
      ['#1f4e79', 'route'],
      ['#ad1457', 'track'],
    ]);
    if (regions.length)
      section(
        'Regions',
        regions.map((r, i) => [PALETTE[i % PALETTE.length], `${i + 1}: ${r.jobs.length} job${r.jobs.length === 1 ? '' : 's'}`]),
      );
  }
}
