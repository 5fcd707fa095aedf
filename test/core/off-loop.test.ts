import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { threadId } from 'node:worker_threads';
import { OffLoop } from '../../src/core/off-loop.ts';
import * as jobs from './off-loop-jobs.ts';

describe('OffLoop', () => {
  const offLoop = new OffLoop(new URL('./off-loop-jobs.ts', import.meta.url), jobs, { errors: [jobs.TooBig] });
  after(() => offLoop.close());

  it('runs a function on a worker thread, or in place when asked', async () => {
    const worker = await offLoop.run('where', [], false);
    assert.notEqual(worker, threadId);
    assert.equal(await offLoop.run('where', [], true), threadId);
  });

  it('hands byte arrays back as Buffers, with the same bytes either way', async () => {
    const input = Buffer.from('abc');
    for (const inPlace of [false, true]) {
      const out = await offLoop.run('doubled', [input, 10], inPlace);
      assert.ok(Buffer.isBuffer(out.data), `a Buffer (${inPlace ? 'in place' : 'from the worker'})`);
      assert.equal(out.data.toString(), 'abcabc');
      assert.equal(out.thread === threadId, inPlace);
    }
    assert.equal(input.toString(), 'abc', 'the argument was copied, not moved');
  });

  it('throws a known error as its own class from either thread, and any other as an error with its message', async () => {
    for (const inPlace of [false, true]) {
      await assert.rejects(offLoop.run('doubled', [Buffer.alloc(11), 10], inPlace), (err: Error) => err instanceof jobs.TooBig && err.message === '11 bytes is more than 10');
      await assert.rejects(offLoop.run('fails', [], inPlace), (err: Error) => !(err instanceof jobs.TooBig) && err.message === 'not a known error');
    }
  });

  it('stops its worker once idle for idleMs, and starts another for the next call', async () => {
    const brief = new OffLoop(new URL('./off-loop-jobs.ts', import.meta.url), jobs, { idleMs: 20 });
    const first = await brief.run('where', [], false);
    assert.equal(brief.started, true);
    for (let waited = 0; brief.started && waited < 200; waited++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(brief.started, false, 'the idle worker stopped');
    const second = await brief.run('where', [], false);
    assert.notEqual(second, first, 'a new worker thread answered');
    await brief.close();
  });

  it('answers a call made while its previous worker is still closing', async () => {
    await offLoop.run('where', [], false);
    const closing = offLoop.close();
    const next = offLoop.run('where', [], false);
    await closing;
    assert.notEqual(await next, threadId, 'the old worker\'s exit did not fail the call waiting for the new one');
  });

  it('keeps answering after close, with a new worker', async () => {
    await offLoop.close();
    assert.notEqual(await offLoop.run('where', [], false), threadId);
  });
});
