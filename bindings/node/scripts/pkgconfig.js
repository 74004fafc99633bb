#!/usr/bin/env node
// Prints libctensor's flags for binding.gyp from pkg-config: `cflags` (include dirs),
// `libs` (-L/-l) or `rpath` (an -rpath for every -L dir, so the addon finds the
// library without LD_LIBRARY_PATH, also in a development build's src/).
'use strict';
const { execFileSync } = require('node:child_process');

function pkgConfig(...args) {
  try {
    return execFileSync('pkg-config', [...args, 'ctensor'], { encoding: 'utf8' }).trim();
  } catch (err) {
    process.stderr.write('ctensor: pkg-config cannot find ctensor; set PKG_CONFIG_PATH to ' +
      '<builddir>/meson-uninstalled or to an installed prefix\'s lib/pkgconfig\n');
    process.exit(1);
  }
}

const what = process.argv[2];
if (what === 'cflags') {
  console.log(pkgConfig('--cflags-only-I'));
} else if (what === 'libs') {
  console.log(pkgConfig('--libs'));
} else if (what === 'rpath') {
  const dirs = pkgConfig('--libs-only-L').split(/\s+/).filter((f) => f.startsWith('-L'));
  console.log(dirs.map((f) => `-Wl,-rpath,${f.slice(2)}`).join(' '));
} else {
  process.stderr.write('usage: pkgconfig.js cflags|libs|rpath\n');
  process.exit(2);
}
