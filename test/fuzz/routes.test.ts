// Every route of every service under generated requests: no answer is a 5xx, the process survives, a refused
// request (4xx) leaves every table of the service exactly as it was, and an accepted one sent again several times at
// once is answered each time without a 5xx. FUZZ_RUNS requests per route (a few in the
// suite; `npm run fuzz -- --runs N` for more), FUZZ_SEED to replay a failure.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SERVICE_IDS } from '../../src/core/service.ts';
import { SERVICES } from '../../src/services/index.ts';
import { DATABASES, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { requestArbitrary, type RequestPlan } from './arbitraries.ts';
import { credentialFor, FUZZ_LICENCE, FUZZ_ROOT_TOKEN } from './credentials.ts';
import { sendRaw } from './raw-http.ts';
import { describeCoverage, plainPath, recordingRoutes, schemaCoverage, WILDCARD_SEEDS, WRITTEN_BY_AUTHENTICATION, type FuzzRoute } from './routes.ts';
import { changedTables, StateDigest } from './state-digest.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const SLOWEST_KEPT = 8;
/** Copies of an accepted request sent at once. */
const REPLAYS = 4;

/** `%XX` escapes are sent as they are (they are the point of the value); anything else is encoded. */
const encodeQueryPart = (s: string) => (/^(%[0-9A-Fa-f]{2})+$/.test(s) ? s : encodeURIComponent(s));

function targetOf(plan: RequestPlan, extraQuery: Array<[string, string]>): Buffer {
  const query = [...plan.query, ...extraQuery].map(([k, v]) => `${encodeQueryPart(k)}=${encodeQueryPart(v)}`).join('&');
  return Buffer.concat([plan.target, Buffer.from(query ? `?${query}` : '')]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const database of DATABASES) {
  describe(`fuzzing every route (${database})`, () => {
    let t: TestRuntime;
    const routes: FuzzRoute[] = [];
    const totals = { routes: 0, requests: 0, serverErrors: 0, unimplemented: 0 };
    // The slowest answers, printed (never asserted: timing is the machine's): a generated request that takes seconds
    // points at work that grows too fast with its input.
    const slowest: Array<{ ms: number; label: string }> = [];
    const noteDuration = (ms: number, label: string) => {
      slowest.push({ ms, label });
      slowest.sort((a, b) => b.ms - a.ms);
      slowest.length = Math.min(slowest.length, SLOWEST_KEPT);
    };

    before(async () => {
      t = await startTestRuntime({
        services: recordingRoutes(SERVICES, routes),
        database,
        clock: 'manual',
        settings: { secrets: { devRootToken: FUZZ_ROOT_TOKEN }, payments: { dev_licence_key: FUZZ_LICENCE } },
      });
    });
    after(async () => {
      console.log(`fuzz (${database}): ${totals.routes} routes, ${totals.requests} requests, ${totals.serverErrors} answers 5xx (besides ${totals.unimplemented} deliberate 501)`);
      // How much of each service the fuzzer could derive requests for from a schema rather than guess.
      for (const service of SERVICE_IDS) console.log(`fuzz (${database}) schemas: ${describeCoverage(service, schemaCoverage(service, routes))}`);
      for (const { ms, label } of slowest) console.log(`fuzz (${database}) slowest: ${Math.round(ms)} ms ${label}`);
      await t.close();
    });

    for (const service of SERVICE_IDS) {
      it(`${service}: no 5xx, and a refused request changes nothing`, async (test) => {
        test.diagnostic(describeCoverage(service, schemaCoverage(service, routes)));
        const running = t.rt.services.get(service)!;
        const { hostname, port } = new URL(running.url);
        const exempt = new Set(WRITTEN_BY_AUTHENTICATION[service] ?? []);
        const state = new StateDigest(running.ctx.db, running.manifest.tables.filter((table) => !exempt.has(table)));
        const digest = () => state.current();
        const mine = routes.filter((r) => r.service === service);
        assert.ok(mine.length > 0, `${service} registered no routes`);
        // Accepted requests may leave work behind (jobs, group commits); wait (a while at most) for the tables to hold
        // still.
        const settled = async () => {
          let last = await digest();
          for (let tries = 0; tries < 250; tries++) {
            await sleep(20);
            const now = await digest();
            if (now === last) break;
            last = now;
          }
          return last;
        };
        // The first authenticated call of a user provisions what the user owns (a drive's root folder, a primary
        // calendar): made here with plain GETs, so that the fuzzed requests find it done.
        for (const route of mine.filter((r) => r.methods.includes('GET'))) {
          const credential = credentialFor(service, 'valid', t.rt.clock.now());
          const query = credential.query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
          await sendRaw(hostname, Number(port), { method: 'GET', target: Buffer.from(`${plainPath(route)}${query ? `?${query}` : ''}`), headers: credential.headers });
        }
        let before = await settled();
        for (const route of mine) {
          totals.routes++;
          await fc.assert(
            fc.asyncProperty(requestArbitrary(route), async (plan) => {
              const credential = credentialFor(service, plan.credential, t.rt.clock.now());
              const headers: Array<[string, string]> = [...credential.headers];
              if (plan.contentType) headers.push(['content-type', plan.contentType]);
              const sentAt = performance.now();
              const answer = await sendRaw(hostname, Number(port), { method: plan.method, target: targetOf(plan, credential.query), headers, body: plan.body });
              totals.requests++;
              // 501 is the deliberate answer of an operation a service declares unimplemented, not a failure.
              if (answer.status === 501) totals.unimplemented++;
              else if (answer.status >= 500 || answer.status === 0) totals.serverErrors++;
              const label = `${plan.method} ${plan.target.toString('latin1').slice(0, 200)} (${route.url})`;
              noteDuration(performance.now() - sentAt, `${answer.status} ${label}`);
              assert.ok(answer.status > 0, `no answer to ${label}`);
              assert.ok(answer.status < 500 || answer.status === 501, `${label} answered ${answer.text}`);
              if (answer.status >= 400) {
                const after = await digest();
                assert.ok(after === before, `${label} answered ${answer.status} but changed ${changedTables(before, after).join(', ')}`);
              } else {
                // An accepted request sent again several times at once (a client retrying, or two clients): each
                // copy is answered, a repeat being refused or taken as the API says, never failed by a race between
                // their units of work (on PostgreSQL they run at once).
                const again = await Promise.all(
                  Array.from({ length: REPLAYS }, () => sendRaw(hostname, Number(port), { method: plan.method, target: targetOf(plan, credential.query), headers, body: plan.body })),
                );
                totals.requests += REPLAYS;
                const failed = again.find((a) => a.status === 0 || (a.status >= 500 && a.status !== 501));
                if (failed) totals.serverErrors++;
                assert.ok(!failed, `${label}, accepted once, then sent ${REPLAYS} times at once, answered ${failed?.status} ${failed?.text}`);
                before = await settled();
              }
            }),
            // A catch-all route stands for every operation behind it: as many runs per seeded operation.
            { numRuns: RUNS * Math.max(1, route.url.endsWith('*') ? (WILDCARD_SEEDS[service]?.length ?? 1) : 1), seed: SEED, endOnFailure: true, includeErrorInReport: true },
          );
        }
        const health = await call(`${t.adminUrl}/health`);
        assert.equal(health.status, 200, 'the runtime still answers');
      });
    }
  });
}
