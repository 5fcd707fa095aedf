#!/usr/bin/env node
// Runs the bundle compiled ahead of time (dist/cli.js, from `npm run build`, which `npm ci` runs through `prepare`)
// while no source it was built from has changed since; otherwise the TypeScript sources through tsx's loader, so a
// checkout without a build, or with fresh edits, runs all the same (only slower to start).
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);

function bundleIsCurrent() {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(new URL('dist/inputs.json', root), 'utf8'));
    statSync(new URL('dist/cli.js', root));
    return inputs.every((path) => statSync(new URL(path, root)).mtimeMs <= builtAt);
  } catch {
    return false; // no build, or an input is gone
  }
}

if (bundleIsCurrent()) {
  await import('../dist/cli.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
