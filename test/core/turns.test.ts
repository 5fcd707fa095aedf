import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import { SLICE_MS, Turns } from '../../src/core/turns.ts';

describe('Turns', () => {
  it('grants one turn per turn of the event loop, across computations, oldest first', async () => {
    // A chain of immediates counts the loop's turns; every grant sees a count of its own.
    let loopTurns = 0;
    let counting = true;
    const count = () => {
      loopTurns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const granted: Array<{ who: string; at: number }> = [];
    const computation = async (who: string) => {
      const turns = new Turns();
      for (let i = 0; i < 5; i++) {
        await turns.take();
        granted.push({ who, at: loopTurns });
      }
    };
    await Promise.all([computation('a'), computation('b'), computation('c')]);
    counting = false;
    assert.equal(granted.length, 15);
    for (let i = 1; i < granted.length; i++) assert.ok(granted[i].at > granted[i - 1].at, `grants ${i - 1} and ${i} in different loop turns`);
    assert.deepEqual(granted.slice(0, 6).map((g) => g.who), ['a', 'b', 'c', 'a', 'b', 'c'], 'in the order they asked');
  });

  it('lets I/O callbacks run between two slices of a busy computation', async () => {
    const order: string[] = [];
    const turns = new Turns();
    await turns.take();
    setTimeout(() => order.push('timer'), 0);
    const busy = async () => {
      for (let slice = 0; slice < 20; slice++) {
        const start = performance.now();
        while (!turns.due) if (performance.now() - start > 50) throw new Error('a slice never ended');
        order.push('slice');
        await turns.take();
      }
    };
    await busy();
    const timer = order.indexOf('timer');
    assert.ok(timer > 0 && timer < order.length - 1, `the timer ran between slices: ${order.join(' ')}`);
  });

  it('is due once its slice has run for SLICE_MS, and not right after a turn', async () => {
    const turns = new Turns();
    const before = performance.now();
    await turns.take();
    const dueAtOnce = turns.due;
    // Measured from before the turn began, so a slice not yet spent by this measure cannot be due.
    if (performance.now() - before < SLICE_MS) assert.equal(dueAtOnce, false);
    const start = performance.now();
    while (performance.now() - start < SLICE_MS);
    assert.equal(turns.due, true);
  });
});
