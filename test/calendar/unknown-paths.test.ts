// Paths that are no Calendar v3 method (made-up resources, a wrong verb on a real path, an id longer than any route
// accepts) answer 404 `notFound` in Calendar's error body, not 501.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { calendarSuite, expectError } from './helpers.ts';

for (const database of DATABASES) {
  describe(`calendar paths outside the API (${database})`, () => {
    const { dev: a } = calendarSuite(database);

    it('made-up paths and wrong verbs are 404 notFound', async () => {
      const cases: Array<[string, string]> = [
        ['GET', '/nonsense'],
        ['POST', '/calendars/primary/widgets'],
        ['GET', '/users/me/somethingElse'],
        ['GET', '/calendars/primary/events/abcdef/instances/extra'],
        ['DELETE', '/colors'],
        ['PUT', '/calendars/primary/clear'],
        ['GET', '/freeBusy'],
        ['PATCH', '/users/me/calendarList'],
        ['POST', '/channels/start'],
      ];
      for (const [method, path] of cases) {
        const res = await a(path, { method, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
        assert.equal(res.status, 404, `${method} ${path}: ${res.status} ${res.text}`);
        expectError(res, 404, 'notFound');
        assert.equal(res.body.error.errors[0].domain, 'global');
      }
    });

    it('an over-long calendar id is 404, on reads and writes', async () => {
      const long = `${'x'.repeat(3000)}@group.calendar.twinstack.local`;
      expectError(await a(`/calendars/${long}`), 404, 'notFound');
      expectError(await a(`/calendars/${long}/events`), 404, 'notFound');
      expectError(await a(`/calendars/${long}/events`, { body: { summary: 'x' } }), 404, 'notFound');
      expectError(await a(`/users/me/calendarList/${long}`), 404, 'notFound');
      expectError(await a(`/calendars/${'y'.repeat(1500)}`), 404, 'notFound');
    });
  });
}
