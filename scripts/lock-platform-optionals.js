#!/usr/bin/env node
// Adds to package-lock.json the platform-specific optional packages (darwin, win32, android, …)
// that npm leaves out when the registry this machine reaches serves only Linux builds of them.
// Without the entries `npm ci` refuses the lock ("Missing: … from lock file") although it would
// skip those packages on Linux anyway. Each entry carries its version, os, cpu (and libc), so npm
// on that platform fetches it normally. Run after any `npm install` here: node scripts/lock-platform-optionals.js
const fs = require('fs');
const path = require('path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pkgs = lock.packages;
const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 'riscv64', 's390x', 'loong64', 'wasm32'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) return null;
  const out = { os: [os], cpu: [cpu] };
  if (os === 'linux' && parts.some((p) => p.startsWith('musl'))) out.libc = ['musl'];
  else if (os === 'linux' && parts.some((p) => p.startsWith('gnu'))) out.libc = ['glibc'];
  return out;
}

let added = 0;
for (const [key, entry] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${key ? `${key}/` : ''}node_modules/${dep}`;
    if (pkgs[nested] || pkgs[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    pkgs[`node_modules/${dep}`] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform-specific optional entries`);
