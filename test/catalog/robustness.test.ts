// Requests that once answered 500 and now get the API's 400: a datafeed schedule whose day never comes round, and a
// triggeraction context that decodes to JSON but not to an object.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { SUB, startCatalog, type CatalogRuntime } from './helpers.ts';

const feed = (schedule: Record<string, unknown>) => ({
  name: 'Feed',
  fileName: `feed-${Math.random().toString(36).slice(2)}.txt`,
  contentType: 'products',
  targets: [{ language: 'en', country: 'US' }],
  fetchSchedule: { fetchUrl: 'https://shop.example/feed.txt', ...schedule },
});

for (const database of DATABASES) {
  describe(`catalog robustness (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
    });
    after(async () => c.close());

    it('a fetch schedule with a fractional day, hour or minute is a 400, a whole one is stored', async () => {
      for (const schedule of [{ dayOfMonth: 1.5 }, { hour: 2.5 }, { minuteOfHour: 0.5 }]) {
        const res = await c.api(`/${SUB}/datafeeds`, { body: feed(schedule) });
        assert.equal(res.status, 400, JSON.stringify(schedule));
        assert.match(res.body.error.message, /whole number/);
      }
      assert.equal((await c.api(`/${SUB}/datafeeds`, { body: feed({ dayOfMonth: 31, hour: 23, minuteOfHour: 59 }) })).status, 200);
    });

    it('triggeraction with a context that is JSON null or a number is a 400', async () => {
      for (const json of ['null', '7', '"text"']) {
        const actionContext = Buffer.from(json).toString('base64url');
        const res = await c.api(`/${SUB}/merchantsupport/triggeraction`, { body: { actionContext, actionInput: { actionFlowId: 'claim' } } });
        assert.equal(res.status, 400, json);
        assert.match(res.body.error.message, /actionContext/);
      }
    });
  });
}
