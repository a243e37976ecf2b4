import type { SharePageData, TilesConfig } from '@share-pages/data';
import { Request } from 'express';
import { shareAssets, shareAssetUrl } from './share-assets';

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * JSON for a `<script type="application/json">` block: `<` escaped (no `</script>` can close it early),
 * and U+2028/U+2029 escaped.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * Whether the client prefers an HTML page to data (a browser's navigation asks for `text/html`
 * first); `*` / `*\/*` alone, no `Accept`, or a data type → false.
 * @param dataType the data media type the route answers otherwise
 */
export function prefersHtml(req: Request, dataType = 'application/json'): boolean {
  return req.accepts([dataType, 'text/html']) === 'text/html';
}

/** The tiles the pages draw on (`CONSOLE_TILE_URL`) with a credit line, or null for none. */
export function tilesConfig(url: string | undefined): TilesConfig | null {
  if (!url) return null;
  const host = /^https?:\/\/([^/?#]+)/i.exec(url)?.[1] ?? url;
  return { url, attribution: /openstreetmap\./i.test(host) ? '© OpenStreetMap contributors' : `Map tiles: ${host.replace(/\{s\}\./g, '')}` };
}

/** What every share page has: its title, header and main HTML, and the data its script draws. */
export interface SharePage {
  /** plain text */
  title: string;
  /** `data-page` of the body: which drawing the script runs */
  page: 'track' | 'clusters' | 'error';
  /** HTML */
  header: string;
  /** HTML, holding `<div id="map">` when there is something to draw */
  main: string;
  data?: SharePageData;
}

/**
 * A whole share page: the bundle's stylesheet and deferred script from our origin (none when not
 * built), the page's text as HTML (readable without the script), its data as a JSON block. No inline
 * script or style: the pages' CSP allows neither. An empty icon, so the browser asks for no
 * `/favicon.ico`.
 */
export function renderSharePage(p: SharePage): string {
  const assets = shareAssets();
  const head = assets
    ? `<link rel="stylesheet" href="${escapeHtml(shareAssetUrl(assets.css))}">\n<script src="${escapeHtml(shareAssetUrl(assets.js))}" defer></script>`
    : '';
  const data = p.data ? `\n<script type="application/json" id="share-data">${jsonForScript(p.data)}</script>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${escapeHtml(p.title)}</title>
${head}
</head>
<body data-page="${p.page}">
<header class="share-header">${p.header}</header>
${p.main}${data}
</body>
</html>
`;
}

/**
 * The HTML page of an error on a share link, for a browser (the same status as the JSON answer):
 * a sentence for people, the API's message below it.
 */
export function renderErrorPage(http: number, message: string): string {
  const lead =
    http === 404
      ? 'This link is unknown or has expired.'
      : http === 429
        ? 'Too many requests from your network: please try again in a minute.'
        : 'This page cannot be shown right now. Please try again later.';
  return renderSharePage({
    title: http === 404 ? 'Link not found · Fieldwork' : 'Fieldwork',
    page: 'error',
    header: `<h1>${http === 404 ? 'Link not found' : 'Not available'}</h1>`,
    main: `<main class="share-error"><p>${escapeHtml(lead)}</p><p class="share-note">${escapeHtml(message)}</p></main>`,
  });
}
