/**
 * The console's Content-Security-Policy (CONTRACTS.md "Wave 3: dispatcher console"; docs/console.md):
 * everything from our own origin; images also from the tile host when `CONSOLE_TILE_URL` is set
 * (`{s}` subdomains → a `*.` wildcard); no inline script or style element; no
 * `upgrade-insecure-requests` (a console on a plain-HTTP LAN must load its own assets over http).
 * @param tileUrl the tile template, or undefined/empty for none
 */
export function consoleCsp(tileUrl?: string): string {
  const tiles = tileSource(tileUrl);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ''}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** `https://{s}.tile.example.org/{z}/{x}/{y}.png` → `https://*.tile.example.org`; null when unset or not a URL. */
export function tileSource(tileUrl?: string): string | null {
  if (!tileUrl) return null;
  const match = /^(https?):\/\/([^/\s]+)/.exec(tileUrl);
  if (!match) return null;
  const host = match[2].replace(/\{s\}/g, '*').replace(/\{[^}]*\}/g, '*');
  return `${match[1]}://${host}`;
}
