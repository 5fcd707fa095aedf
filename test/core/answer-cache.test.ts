// AnswerCache on a bare Fastify instance: what is kept, what is not, and that an answer computed across a change is
// never kept (the handler here waits on a promise the test settles after invalidating).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { AnswerCache } from '../../src/core/http/answer-cache.ts';

describe('AnswerCache', () => {
  let app: FastifyInstance;
  let answers: AnswerCache;
  let computed = 0;
  let value = 'first';
  /** While set, the handler waits for it before answering. */
  let gate: Promise<void> | undefined;

  before(async () => {
    app = Fastify();
    answers = new AnswerCache(app, { entries: 100, bytes: 1024 * 1024 });
    app.get('/things', async (req, reply) => {
      const { status } = req.query as { status?: string };
      if (answers.answered(req, reply)) return reply;
      computed++;
      await gate;
      if (status) reply.code(Number(status));
      return { value, computed };
    });
    await app.ready();
  });
  after(async () => app.close());

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.body, type: res.headers['content-type'] };
  };

  it('answers the same path and query with the bytes and type of the first answer', async () => {
    const first = await get('/things?a=1');
    const again = await get('/things?a=1');
    assert.deepEqual(again, first);
    assert.equal(first.type, 'application/json; charset=utf-8');
    assert.equal(JSON.parse(again.body).computed, computed, 'computed once');
    assert.notEqual((await get('/things?a=2')).body, first.body, 'another query is another answer');
  });

  it('keeps no answer other than 200', async () => {
    const before = computed;
    assert.equal((await get('/things?status=201')).status, 201);
    assert.equal((await get('/things?status=201')).status, 201);
    assert.equal(computed, before + 2);
  });

  it('forgets every answer when invalidated', async () => {
    await get('/things?b=1');
    value = 'second';
    answers.invalidate();
    assert.equal(JSON.parse((await get('/things?b=1')).body).value, 'second');
  });

  it('does not keep an answer computed while the data changed', async () => {
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const before = computed;
    const pending = get('/things?c=1');
    // Once the handler is waiting, the data changes under it.
    while (computed === before) await new Promise((r) => setImmediate(r));
    value = 'changed';
    answers.invalidate();
    gate = undefined;
    open();
    assert.equal((await pending).status, 200);
    // Kept across the change, that answer would be sent now; it is computed again instead.
    await get('/things?c=1');
    assert.equal(computed, before + 2);
    // And the one computed after the change is kept.
    await get('/things?c=1');
    assert.equal(computed, before + 2);
  });
});
