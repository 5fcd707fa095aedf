// The collection asked for once loading ends: it really collects, and the program's global stays without `gc`.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { collectLoadingGarbage } from '../../src/core/loading-garbage.ts';

it('collects what loading left unreachable, without exposing gc to the program', async () => {
  const ref = new WeakRef({ rows: new Array(10_000).fill('row') });
  // A WeakRef holds its target until the end of the turn that made or read it.
  await nextTurn();
  assert.notEqual(ref.deref(), undefined, 'nothing collected it by itself yet');
  await nextTurn();
  collectLoadingGarbage();
  assert.equal(ref.deref(), undefined);
  assert.equal((globalThis as { gc?: unknown }).gc, undefined);
});
