#!/usr/bin/env node
// Builds the addon with the node-gyp that npm bundles, against the Node headers
// installed with this node (--nodedir: nothing is downloaded), and libctensor found
// through pkg-config (PKG_CONFIG_PATH=<builddir>/meson-uninstalled for a development
// build, or an installed prefix). binding.gyp asks scripts/pkgconfig.js for the flags.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// The prefix whose include/node holds node_api.h: this node's own, then the usual places.
function nodeDir() {
  const candidates = [
    process.env.npm_config_nodedir,
    process.config.variables.node_prefix,
    path.dirname(path.dirname(process.execPath)),
    '/usr',
    '/usr/local',
  ].filter(Boolean);
  for (const dir of candidates) {
    if (fs.existsSync(path.join(dir, 'include', 'node', 'node_api.h')) &&
        fs.existsSync(path.join(dir, 'include', 'node', 'common.gypi'))) {
      return dir;
    }
  }
  throw new Error(`no Node headers (include/node/node_api.h) under ${candidates.join(', ')}`);
}

// npm sets npm_config_node_gyp in scripts it runs; otherwise the copy bundled with npm.
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(path.dirname(path.dirname(process.execPath)), 'lib', 'node_modules', 'npm',
      'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`node-gyp not found (tried ${candidates.join(', ')})`);
  return found;
}

const dir = nodeDir();
const args = [nodeGyp(), 'rebuild', `--nodedir=${dir}`];
if (process.env.CTENSOR_NODE_DEBUG) args.push('--debug');
console.log(`ctensor: node-gyp against ${path.join(dir, 'include', 'node')}`);
execFileSync(process.execPath, args, { cwd: path.join(__dirname, '..'), stdio: 'inherit' });
