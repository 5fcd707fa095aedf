// A secrets connection is read by Node's own parser until its first extended verb (LIST, HELP, SCAN), then handed to
// the verb rewriter: the refused request and everything after it are answered, in order, on the same connection,
// whatever came before it (answered, in flight, pipelined in the same read) and however its bytes were split.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { refusedRequest } from '../../src/services/secrets/http/hand-over.ts';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** One raw connection: bytes in, answers out in the order they came (Content-Length framed, as the listener sends). */
class Connection {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  #answers: Answer[] = [];
  #waiters: Array<() => void> = [];
  closed = false;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.#socket = connect(Number(port), hostname);
    this.#socket.setNoDelay(true);
    this.#socket.on('data', (chunk) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#parse();
    });
    this.#socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
    this.#socket.on('error', () => undefined);
  }

  send(text: string): void {
    this.#socket.write(Buffer.from(text, 'latin1'));
  }

  /** Waits for `n` answers in all (or the connection's end), and returns every answer so far. */
  async answers(n: number): Promise<Answer[]> {
    while (this.#answers.length < n && !this.closed) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return this.#answers;
  }

  close(): void {
    this.#socket.destroy();
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  #parse(): void {
    for (;;) {
      const end = this.#buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = this.#buffer.toString('latin1', 0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      assert.equal(headers['transfer-encoding'], undefined, 'answers are Content-Length framed');
      const length = Number(headers['content-length'] ?? 0);
      if (this.#buffer.length < end + 4 + length) return;
      const text = this.#buffer.toString('utf8', end + 4, end + 4 + length);
      this.#buffer = this.#buffer.subarray(end + 4 + length);
      this.#answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body: text ? JSON.parse(text) : undefined });
      this.#wake();
    }
  }
}

const request = (method: string, path: string, extra = '', body?: string) =>
  `${method} /v1/${path} HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${ROOT}\r\n${extra}${body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`}\r\n${body ?? ''}`;

describe('the refused request found in the chunk Node could not parse', () => {
  const chunk = (text: string) => Buffer.from(text, 'latin1');
  it('starts at its request line, after whatever the chunk held before it', () => {
    const raw = chunk('GET /a HTTP/1.1\r\nHost: x\r\n\r\nLIST /b HTTP/1.1\r\n\r\n');
    assert.equal(refusedRequest(raw, raw.indexOf('LIST') + 2)?.toString('latin1'), 'LIST /b HTTP/1.1\r\n\r\n');
    // Right after a body: no line break before the verb.
    const afterBody = chunk('POST /a HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}HELP /b HTTP/1.1\r\n\r\n');
    assert.equal(refusedRequest(afterBody, afterBody.indexOf('HELP') + 2)?.toString('latin1'), 'HELP /b HTTP/1.1\r\n\r\n');
    assert.equal(refusedRequest(chunk('SCAN / HTTP/1.1\r\n\r\n'), 1)?.toString('latin1'), 'SCAN / HTTP/1.1\r\n\r\n');
  });

  it('may end inside its verb, the rest to come in a later read', () => {
    const raw = chunk('GET /a HTTP/1.1\r\n\r\nHEL');
    assert.equal(refusedRequest(raw, raw.length - 1)?.toString('latin1'), 'HEL');
    assert.equal(refusedRequest(chunk('SC'), 1)?.toString('latin1'), 'SC');
  });

  it('is completed from the end of its verb when its first bytes came in an earlier read', () => {
    assert.equal(refusedRequest(chunk('ST /b HTTP/1.1\r\n\r\n'), 0)?.toString('latin1'), 'LIST /b HTTP/1.1\r\n\r\n');
    assert.equal(refusedRequest(chunk('IST /b HTTP/1.1\r\n\r\n'), 1)?.toString('latin1'), 'LIST /b HTTP/1.1\r\n\r\n');
    assert.equal(refusedRequest(chunk('LP /b HTTP/1.1\r\n\r\n'), 0)?.toString('latin1'), 'HELP /b HTTP/1.1\r\n\r\n');
    assert.equal(refusedRequest(chunk('CAN /b HTTP/1.1\r\n\r\n'), 0)?.toString('latin1'), 'SCAN /b HTTP/1.1\r\n\r\n');
  });

  it('is nothing to hand over for any other verb or an error past the verb', () => {
    for (const [text, at] of [
      ['FOO /b HTTP/1.1\r\n\r\n', 0],
      ['LISTEN /b HTTP/1.1\r\n\r\n', 2],
      ['LIST /b HTTP/1.1\r\n\r\n', 7],
      ['GET /a HTTP/1.1\r\n\r\nXLIST /b HTTP/1.1\r\n\r\n', 19],
      ['no space at all', 0],
      ['LIST /b', -1],
    ] as const) {
      assert.equal(refusedRequest(chunk(text), at), undefined, text);
    }
  });
});

for (const database of DATABASES) {
  describe(`secrets connections handed to the verb rewriter (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    const open: Connection[] = [];
    const connection = () => {
      const c = new Connection(t.url('secrets'));
      open.push(c);
      return c;
    };
    before(async () => {
      t = await startSecrets(database);
      v = vault(t);
      await v('secret/data/h/one', { body: { data: { n: 1 } } });
    });
    after(async () => {
      for (const c of open) c.close();
      await t.close();
    });

    it('answers a LIST after reads on the same keep-alive connection, and every request after it', async () => {
      const c = connection();
      c.send(request('GET', 'secret/data/h/one'));
      assert.equal((await c.answers(1))[0]!.body.data.data.n, 1);
      c.send(request('LIST', 'secret/metadata/h'));
      assert.deepEqual((await c.answers(2))[1]!.body.data.keys, ['one']);
      c.send(request('POST', 'secret/data/h/two', '', JSON.stringify({ data: { n: 2 } })));
      // Pipelined requests may run concurrently: the write is answered before the reads of what it wrote are sent.
      await c.answers(3);
      c.send(request('LIST', 'secret/metadata/h'));
      c.send(request('GET', 'secret/data/h/two'));
      const answers = await c.answers(5);
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200]);
      assert.deepEqual(answers[3]!.body.data.keys, ['one', 'two']);
      assert.equal(answers[4]!.body.data.data.n, 2);
      assert.equal(c.closed, false);
    });

    it('answers pipelined requests in order when the LIST comes in the same read as a write still in flight', async () => {
      const c = connection();
      c.send(request('POST', 'secret/data/h/three', '', JSON.stringify({ data: { n: 3 } })) + request('LIST', 'secret/metadata/h') + request('HELP', 'secret/data/h/one') + request('SCAN', 'secret/metadata/h'));
      const answers = await c.answers(4);
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 405]);
      assert.equal(answers[0]!.body.data.version, 1);
      assert.deepEqual(answers[1]!.body.data.keys, ['one', 'three', 'two']);
      assert.match(JSON.stringify(answers[2]!.body), /openapi/);
      assert.deepEqual(answers[3]!.body, { errors: [] });
    });

    it('completes a verb whose first bytes came in an earlier read', async () => {
      for (const [first, rest] of [
        ['LI', 'ST'],
        ['L', 'IST'],
      ]) {
        const c = connection();
        c.send(request('GET', 'secret/data/h/one'));
        await c.answers(1);
        c.send(first!);
        // The first bytes are read on their own before the rest is sent.
        await new Promise((resolve) => setTimeout(resolve, 30));
        c.send(request(rest!, 'secret/metadata/h'));
        const answers = await c.answers(2);
        assert.equal(answers[1]?.status, 200, `${first}|${rest}`);
        assert.deepEqual(answers[1]!.body.data.keys, ['one', 'three', 'two']);
      }
    });

    it('takes a verb marker header only from the rewriter: a client-sent one is ignored before and after the hand-over', async () => {
      const c = connection();
      c.send(request('GET', 'secret/data/h/one', 'X-Secrets-Verb: LIST\r\n'));
      const [read] = await c.answers(1);
      assert.equal(read!.body.data.data.n, 1, 'a read, not a list');
      c.send(request('LIST', 'secret/metadata/h'));
      c.send(request('GET', 'secret/data/h/one', 'X-Secrets-Verb: LIST\r\n'));
      const answers = await c.answers(3);
      assert.deepEqual(answers[1]!.body.data.keys, ['one', 'three', 'two']);
      assert.equal(answers[2]!.body.data.data.n, 1, 'still a read after the hand-over');
    });

    it('answers any mix of verbs, pipelined and split anywhere, in order (property)', async () => {
      // Each request and the status it gets; the write's body is of its own size so bodies are framed too.
      const kinds = {
        read: { text: request('GET', 'secret/data/h/one'), status: 200 },
        list: { text: request('LIST', 'secret/metadata/h'), status: 200 },
        help: { text: request('HELP', 'secret/data/h/one'), status: 200 },
        write: { text: request('POST', 'secret/data/h/prop', '', JSON.stringify({ data: { s: 'LIST /v1/x HTTP/1.1' } })), status: 200 },
        scan: { text: request('SCAN', 'secret/metadata/h'), status: 405 },
      };
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...(Object.keys(kinds) as Array<keyof typeof kinds>)), { minLength: 1, maxLength: 6 }),
          fc.array(fc.nat(), { maxLength: 4 }),
          async (sequence, cuts) => {
            const bytes = sequence.map((k) => kinds[k].text).join('');
            const at = [...new Set(cuts.map((c) => c % bytes.length))].filter((c) => c > 0).sort((a, b) => a - b);
            const c = connection();
            try {
              let from = 0;
              for (const cut of [...at, bytes.length]) {
                c.send(bytes.slice(from, cut));
                from = cut;
                // A pause between the pieces, so that the listener reads them apart.
                await new Promise((resolve) => setTimeout(resolve, 2));
              }
              const answers = await c.answers(sequence.length);
              assert.deepEqual(answers.map((a) => a.status), sequence.map((k) => kinds[k].status), `${sequence.join(',')} cut at ${at.join(',')}`);
              assert.equal(c.closed, false);
            } finally {
              c.close();
            }
          },
        ),
        { numRuns: 40 },
      );
    });

    it('still refuses a verb nobody knows with 400 and closes the connection', async () => {
      const c = connection();
      c.send(request('GET', 'secret/data/h/one'));
      await c.answers(1);
      c.send(request('FETCH', 'secret/data/h/one'));
      const answers = await c.answers(2);
      assert.equal(answers[1]?.status, 400);
      await c.answers(3);
      assert.equal(c.closed, true);
      // Bytes that begin like an extended verb and do not end like one.
      const d = connection();
      d.send('SC');
      await new Promise((resolve) => setTimeout(resolve, 30));
      d.send(request('XY', 'secret/data/h/one'));
      assert.equal((await d.answers(1))[0]?.status, 400);
      await d.answers(2);
      assert.equal(d.closed, true);
    });
  });
}
