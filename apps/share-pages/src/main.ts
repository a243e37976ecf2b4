import 'leaflet/dist/leaflet.css';
import './share.css';
import { drawClusters } from './clusters';
import type { SharePageData } from './data';
import { drawTrack } from './track';

/**
 * The share pages' one script (bundled by esbuild into dist/share-pages, served from our origin):
 * reads the page's data (`#share-data`, written by the api) and draws it into `#map`. The page's
 * text (who, when, figures, the legend) is the api's HTML: readable without this script.
 */
function start(): void {
  const el = document.getElementById('map');
  const source = document.getElementById('share-data');
  if (!el || !source?.textContent) return;
  const data = JSON.parse(source.textContent) as SharePageData;
  switch (data.page) {
    case 'track':
      drawTrack(el, data);
      break;
    case 'clusters':
      if (data.regions) drawClusters(el, { ...data, regions: data.regions });
      break;
  }
  document.body.dataset.drawn = 'true';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
