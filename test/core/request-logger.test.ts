// A request's logger: bound to the request id, but its pino child is made only when a line is written.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino, { type Logger } from 'pino';
import { createListener } from '../../src/core/http/listener.ts';
import { requestLogger } from '../../src/core/http/request-logger.ts';

/** A pino logger whose lines are collected, parsed, and whose children are counted. */
function collectingLogger(level: string): { log: Logger; lines: Array<Record<string, unknown>>; children: () => number } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const log = pino({ level }, sink);
  let made = 0;
  // Children inherit the counting method, and each is made from the logger it is called on.
  const child = log.child;
  log.child = function (this: Logger, ...args: Parameters<Logger['child']>) {
    made += 1;
    return child.apply(this, args);
  } as Logger['child'];
  return { log, lines, children: () => made };
}

// pino writes to its stream synchronously here, but the sink's write callback may run a tick later.
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('request logger', () => {
  it('writes through a child bound to the request, made at the first line only', async () => {
    const { log, lines, children } = collectingLogger('warn');
    const reqLog = requestLogger(log, { reqId: 'r-1' }, {});
    reqLog.info('dropped below the level');
    reqLog.debug({ detail: 1 }, 'dropped too');
    assert.equal(children(), 0, 'no child for lines below the level');
    assert.equal(reqLog.level, 'warn');
    assert.equal(reqLog.isLevelEnabled('info'), false);
    reqLog.error({ err: new Error('boom') }, 'failed');
    reqLog.warn('again');
    await settle();
    assert.equal(children(), 1, 'one child, made for the first line');
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.msg, l.level]),
      [
        ['r-1', 'failed', 50],
        ['r-1', 'again', 40],
      ],
    );
    assert.equal((lines[0].err as { message: string }).message, 'boom');
    assert.deepEqual(reqLog.bindings(), { reqId: 'r-1' });
  });

  it('honours a level set on the request logger and hands out children of its own', async () => {
    const { log, lines } = collectingLogger('warn');
    const reqLog = requestLogger(log, { reqId: 'r-2' }, {});
    reqLog.level = 'info';
    reqLog.info('now kept');
    reqLog.child({ step: 'inner' }).warn('from a grandchild');
    await settle();
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.step, l.msg]),
      [
        ['r-2', undefined, 'now kept'],
        ['r-2', 'inner', 'from a grandchild'],
      ],
    );
    assert.equal(log.level, 'warn', "the parent's level is untouched");
  });

  it('makes the child at once when Fastify passes options (a route with its own log level)', () => {
    const { log, children } = collectingLogger('warn');
    const reqLog = requestLogger(log, { reqId: 'r-3' }, { level: 'debug' });
    assert.equal(children(), 1);
    assert.equal(reqLog.level, 'debug');
  });

  describe('on a listener', () => {
    const { log, lines, children } = collectingLogger('warn');
    const app = createListener({ name: 'logged', log });
    before(async () => {
      app.get('/quiet', async () => ({ ok: true }));
      app.get('/loud', async (req) => {
        req.log.error('something to report');
        return { ok: false };
      });
      await app.ready();
    });
    after(() => app.close());

    it('a request that writes no line makes no child; one that does is bound to its request id', async () => {
      const before = children();
      const quiet = await app.inject({ url: '/quiet' });
      assert.equal(quiet.statusCode, 200);
      assert.equal(children(), before, 'no child for a request that wrote nothing');
      const loud = await app.inject({ url: '/loud', headers: { 'x-request-id': 'given-id-7' } });
      assert.equal(loud.statusCode, 200);
      await settle();
      const line = lines.find((l) => l.msg === 'something to report');
      assert.ok(line, JSON.stringify(lines));
      assert.equal(line.reqId, 'given-id-7');
      assert.equal(line.listener, 'logged');
    });
  });
});
