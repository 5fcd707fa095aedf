import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, call } from '../helpers/runtime.ts';
import { samplesSuite } from './helpers.ts';

for (const database of DATABASES) {
  describe(`entity search (${database})`, () => {
    const suite = samplesSuite(database);
    const search = (query: string) => suite.search(query);

    it('answers the JSON-LD list with the context, scores and result fields', async () => {
      const res = await search('query=taylor%20swift&limit=1');
      assert.equal(res.status, 200);
      assert.equal(res.body['@type'], 'ItemList');
      assert.equal(res.body['@context']['@vocab'], 'http://schema.org/');
      assert.equal(res.body['@context'].kg, 'http://g.co/kg');
      const [item] = res.body.itemListElement;
      assert.equal(item['@type'], 'EntitySearchResult');
      assert.equal(item.result['@id'], 'kg:/m/0dl567');
      assert.equal(item.result.name, 'Taylor Swift');
      assert.deepEqual(item.result['@type'], ['Thing', 'Person']);
      assert.equal(item.result.description, 'American singer-songwriter');
      assert.equal(item.result.url, 'http://taylorswift.com/');
      assert.match(item.result.detailedDescription.url, /wikipedia/);
      assert.equal(typeof item.resultScore, 'number');
    });

    it('ranks exact names above partial matches and honours types', async () => {
      let res = await search('query=paris');
      assert.deepEqual(res.body.itemListElement.map((i: any) => i.result['@id']).slice(0, 2), ['kg:/g/twin_paris', 'kg:/g/twin_paris_tx']);
      res = await search('query=paris&types=Museum');
      assert.deepEqual(res.body.itemListElement, []);
      res = await search('query=louvre&types=Museum&types=Book');
      assert.deepEqual(res.body.itemListElement.map((i: any) => i.result.name), ['Louvre']);
      res = await search('query=zurich');
      assert.equal(res.body.itemListElement[0].result.name, 'Zürich', 'accents do not matter');
      res = await search('query=no%20such%20thing%20anywhere');
      assert.deepEqual(res.body.itemListElement, []);
    });

    it('matches prefixes of names and aliases only when asked', async () => {
      let res = await search('query=jung');
      assert.deepEqual(res.body.itemListElement.map((i: any) => i.result.name).sort(), ['Carl Jung', 'Jung-ho Kang']);
      res = await search('query=jung&prefix=true');
      const names = res.body.itemListElement.map((i: any) => i.result.name);
      assert.ok(names.includes('Jungle') && names.includes('The Jungle Book') && names.includes('Carl Jung'), names.join(','));
    });

    it('looks entities up by id, with or without the kg: prefix', async () => {
      const res = await search('ids=kg:/g/twin_turing&ids=/g/twin_hopper&ids=/g/unknown');
      assert.deepEqual(res.body.itemListElement.map((i: any) => i.result.name).sort(), ['Alan Turing', 'Grace Hopper']);
    });

    it('reads ids given as a comma list as it reads languages and types', async () => {
      let res = await search('ids=kg:/g/twin_turing,/g/twin_hopper&ids=/g/unknown,&ids=');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.itemListElement.map((i: any) => i.result.name).sort(), ['Alan Turing', 'Grace Hopper']);
      res = await search('ids=/g/twin_turing,%20/g/twin_turing');
      assert.deepEqual(res.body.itemListElement.map((i: any) => i.result['@id']), ['kg:/g/twin_turing'], 'each entity once');
      res = await search('ids=/g/twin_turing,Turing');
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.error, {
        code: 400,
        message: 'Invalid entity id: Turing',
        status: 'INVALID_ARGUMENT',
        errors: [{ domain: 'global', reason: 'invalid', message: 'Invalid entity id: Turing', location: 'ids', locationType: 'parameter' }],
      });
      res = await search('ids=,');
      assert.equal(res.status, 400);
      assert.equal(res.body.error.message, 'Either query or ids must be given.');
    });

    it('serves the method with its colon percent-encoded, and no other method', async () => {
      let res = await call(`${suite.base}/v1/entities%3Asearch?key=${DEV_API_KEY}&query=taylor%20swift&limit=1`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.itemListElement[0].result['@id'], 'kg:/m/0dl567');
      res = await call(`${suite.base}/v1/entities%3asearch?query=paris`);
      assert.equal(res.status, 403, 'the same credential check');
      res = await call(`${suite.base}/v1/entities%3Alookup?key=${DEV_API_KEY}&query=paris`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body.error, {
        code: 404,
        message: 'The requested URL /v1/entities%3Alookup was not found on this server.',
        status: 'NOT_FOUND',
        errors: [{ domain: 'global', reason: 'notFound', message: 'The requested URL /v1/entities%3Alookup was not found on this server.' }],
      });
      res = await call(`${suite.base}/v1/other`);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.message, 'The requested URL /v1/other was not found on this server.');
    });

    it('renders one language as strings and several as tagged values', async () => {
      let res = await search('query=paris&languages=fr&limit=1');
      assert.equal(res.body.itemListElement[0].result.description, 'Capitale de la France');
      res = await search('query=paris&languages=en&languages=fr&limit=1');
      assert.deepEqual(res.body.itemListElement[0].result.name, [
        { '@language': 'en', '@value': 'Paris' },
        { '@language': 'fr', '@value': 'Paris' },
      ]);
      res = await search('query=%E6%9D%B1%E4%BA%AC&languages=ja');
      assert.equal(res.body.itemListElement[0].result.name, '東京');
    });

    it('answers a language tag with a region in its primary language when the entity has no text under the tag', async () => {
      let res = await search('query=paris&languages=fr-FR&limit=1');
      assert.equal(res.status, 200);
      assert.equal(res.body.itemListElement[0].result.name, 'Paris');
      assert.equal(res.body.itemListElement[0].result.description, 'Capitale de la France');
      res = await search('ids=/g/twin_paris&languages=en-GB&languages=fr-CA');
      assert.deepEqual(res.body.itemListElement[0].result.name, [
        { '@language': 'en-GB', '@value': 'Paris' },
        { '@language': 'fr-CA', '@value': 'Paris' },
      ]);
    });

    it('reads language tags whatever their case (BCP 47) and answers them in their canonical case', async () => {
      let res = await search('query=paris&languages=FR&limit=1');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.itemListElement[0].result.description, 'Capitale de la France');
      res = await search('ids=/g/twin_paris&languages=EN-gb&languages=fr');
      assert.deepEqual(res.body.itemListElement[0].result.name, [
        { '@language': 'en-GB', '@value': 'Paris' },
        { '@language': 'fr', '@value': 'Paris' },
      ]);
      res = await search('ids=/g/twin_paris&languages=en,EN');
      assert.equal(res.body.itemListElement[0].result.name, 'Paris', 'one language, named once');
    });

    it('limits results and indents on request', async () => {
      const res = await call(`${suite.base}/v1/entities:search?key=${DEV_API_KEY}&query=paris&limit=1&indent=true&prettyPrint=false`);
      assert.equal(res.body.itemListElement.length, 1);
      assert.match(res.text, /\n {2}"@context"/);
    });

    it('answers an indented result as JSON, so that the googleapis client parses it', async () => {
      const res = await fetch(`${suite.base}/v1/entities:search?key=${DEV_API_KEY}&query=paris&limit=1&indent=true&fields=itemListElement(result(name))`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(await res.text(), JSON.stringify({ itemListElement: [{ result: { name: 'Paris' } }] }, null, 2));
      const kg = google.kgsearch({ version: 'v1', rootUrl: `${suite.base}/`, auth: DEV_API_KEY });
      const answer = await kg.entities.search({ query: 'taylor swift', limit: 1, indent: true });
      assert.equal(typeof answer.data, 'object');
      assert.equal((answer.data.itemListElement as any[])[0].result.name, 'Taylor Swift');
    });

    it('rejects bad parameters and credentials with the Google error body', async () => {
      const cases: Array<[string, number, RegExp]> = [
        ['query=x&limit=0', 400, /limit/],
        ['query=x&limit=501', 400, /limit/],
        ['query=x&limit=ten', 400, /limit/],
        ['query=x&prefix=maybe', 400, /prefix/],
        ['query=x&indent=2', 400, /indent/],
        ['ids=not-an-id', 400, /Invalid entity id/],
        ['query=x&languages=English!', 400, /language/],
        ['limit=5', 400, /query or ids/],
        ['query=x&lang=en', 400, /Unknown name "lang": Cannot bind query parameter/],
        ['query=x&type=Person', 400, /Unknown name "type"/],
      ];
      for (const [query, status, message] of cases) {
        const res = await search(query);
        assert.equal(res.status, status, query);
        assert.equal(res.body.error.code, status);
        assert.equal(res.body.error.status, 'INVALID_ARGUMENT');
        assert.match(res.body.error.message, message, query);
      }
      let res = await call(`${suite.base}/v1/entities:search?query=paris&key=wrong-key`);
      assert.equal(res.status, 400);
      assert.match(res.body.error.message, /API key not valid/);
      res = await call(`${suite.base}/v1/entities:search?key=${DEV_API_KEY}&query=paris`, { method: 'GET', headers: { 'content-type': 'text/plain' }, raw: undefined });
      assert.equal(res.status, 200);
    });

    it('answers a request without an API key or token with 403 PERMISSION_DENIED, as an API-key API does', async () => {
      for (const url of [`${suite.base}/v1/entities:search?query=paris`, `${suite.base}/v1/entities:search?key=&query=paris`]) {
        const res = await call(url);
        assert.equal(res.status, 403, url);
        assert.deepEqual(res.body.error, {
          code: 403,
          message: 'The request is missing a valid API key.',
          status: 'PERMISSION_DENIED',
          errors: [{ domain: 'global', reason: 'forbidden', message: 'The request is missing a valid API key.' }],
        });
      }
    });

    it('loads, replaces and deletes entities through the admin API; bad documents change nothing', async () => {
      const doc = { id: '/g/twin_test1', types: ['Person'], names: { en: 'Zebulon Quartermaine' }, descriptions: { en: 'Test person' }, popularity: 10, links: { birthPlace: ['kg:/g/twin_paris'] } };
      let res = await call(`${suite.t.adminUrl}/services/entities/entities`, { body: [doc] });
      assert.equal(res.status, 200);
      assert.equal(res.body.loaded, 1);
      const total = res.body.total;
      assert.equal((await search('query=zebulon')).body.itemListElement[0].result.description, 'Test person');
      assert.deepEqual((await call(`${suite.t.adminUrl}/services/entities/entities/g/twin_test1`)).body.links, { birthPlace: ['/g/twin_paris'] }, 'links are stored without kg:');
      await call(`${suite.t.adminUrl}/services/entities/entities`, { body: { ...doc, descriptions: { en: 'Changed' } } });
      assert.equal((await search('query=quartermaine')).body.itemListElement[0].result.description, 'Changed');
      const badDocs = [
        [{ ...doc, id: 'nope' }],
        [{ ...doc, names: {} }],
        [{ ...doc, id: '/g/twin_test2' }, { ...doc, id: '/g/twin_test3', types: 'Person' }],
        [{ ...doc, extra: 1 }],
        [{ ...doc, id: '/g/twin_test4', links: { birthPlace: ['Paris'] } }],
        [{ ...doc, id: '/g/twin_test5', geo: { latitude: 91, longitude: 0 } }],
        [{ ...doc, id: '/g/twin_test6', names: { en: 'x'.repeat(501) } }],
      ];
      for (const bad of badDocs) {
        res = await call(`${suite.t.adminUrl}/services/entities/entities`, { body: bad });
        assert.equal(res.status, 400, JSON.stringify(bad));
      }
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities?limit=1000`)).body.total, total, 'nothing was stored');
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities/g/twin_test1`, { method: 'DELETE' })).status, 204);
      assert.deepEqual((await search('query=zebulon')).body.itemListElement, []);
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities/g/twin_test1`, { method: 'DELETE' })).status, 404);
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities/g/twin_test1`)).status, 404);
    });

    it('answers a lookup by id with what was last written: after a replacement, a deletion and a reset', async () => {
      const doc = { id: '/g/twin_lookup', types: ['Thing'], names: { en: 'Lookup Widget' }, descriptions: { en: 'First' } };
      const lookup = async () => (await search('ids=/g/twin_lookup')).body.itemListElement.map((e: { result: { description?: string } }) => e.result.description);
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities`, { body: doc })).status, 200);
      assert.deepEqual(await lookup(), ['First']);
      assert.deepEqual(await lookup(), ['First']);
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities`, { body: { ...doc, descriptions: { en: 'Second' } } })).status, 200);
      assert.deepEqual(await lookup(), ['Second']);
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities/g/twin_lookup`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(await lookup(), []);
      assert.equal((await call(`${suite.t.adminUrl}/services/entities/entities`, { body: doc })).status, 200);
      assert.deepEqual(await lookup(), ['First']);
      const reset = await call(`${suite.t.adminUrl}/reset`, { body: { service: 'entities' } });
      assert.equal(reset.status, 200, reset.text);
      assert.deepEqual(await lookup(), []);
      assert.equal((await search('query=taylor%20swift&limit=1')).body.itemListElement.length, 1, 'the samples are back');
    });

    it('keeps loaded entities across a restart', async () => {
      await call(`${suite.t.adminUrl}/services/entities/entities`, { body: { id: '/g/twin_persist', types: ['Thing'], names: { en: 'Persistent Widget' } } });
      await suite.t.restart();
      assert.equal((await search('query=persistent%20widget')).body.itemListElement.length, 1);
    });

    it('serves the googleapis kgsearch client with an API key or a token', async () => {
      const kg = google.kgsearch({ version: 'v1', rootUrl: `${suite.base}/`, auth: DEV_API_KEY });
      const res = await kg.entities.search({ query: 'ada lovelace', limit: 3, types: ['Person'] });
      assert.equal(res.status, 200);
      assert.equal((res.data.itemListElement as any[])[0].result.name, 'Ada Lovelace');
      const oauth = new google.auth.OAuth2();
      oauth.setCredentials({ access_token: DEV_TOKEN });
      const byToken = google.kgsearch({ version: 'v1', rootUrl: `${suite.base}/`, auth: oauth });
      const ids = await byToken.entities.search({ ids: ['/g/twin_curie'], languages: ['pl'] });
      assert.equal((ids.data.itemListElement as any[])[0].result.name, 'Maria Skłodowska-Curie');
      await assert.rejects(kg.entities.search({ query: 'x', limit: 900 }), (err: any) => err.status === 400 && /limit/.test(err.message));
    });
  });
}
