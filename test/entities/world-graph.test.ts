import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildWorldGraph, isWorldId, popularityOf, type WorldSources } from '../../src/services/entities/domain/world-graph.ts';

const city = (id: number, name: string, country: string, population: number, featureCode = 'PPL') => ({ id, name, country, featureCode, population, latitude: 1.5, longitude: -2.25 });

const sources = (): WorldSources => ({
  continents: { EU: 'Europe', SA: 'South America' },
  countries: [
    { code: 'FR', alpha3: 'FRA', name: 'France', native: 'France', aliases: [], continents: ['EU'], capital: 'Paris', currencies: ['EUR'], languages: ['fr'] },
    { code: 'BR', alpha3: 'BRA', name: 'Brazil', native: 'Brasil', aliases: [], continents: ['SA'], capital: 'Brasilia', currencies: ['BRL'], languages: ['pt'] },
    { code: 'KZ', name: 'Kazakhstan', native: 'Қазақстан', aliases: ['Kazakstan'], continents: ['EU'], capital: 'Astana', currencies: ['EUR'], languages: ['kk', 'ru'] },
    { code: 'AC', name: 'Ascension Island', native: 'Ascension Island', aliases: [], continents: ['EU'], capital: 'Georgetown', currencies: [], languages: ['en'] },
  ],
  languages: { fr: { name: 'French', native: 'Français' }, pt: { name: 'Portuguese', native: 'Português' }, en: { name: 'English', native: 'English' } },
  currencies: { EUR: { name: 'Euro', native: 'euro', symbol: '€' }, BRL: { name: 'Brazilian Real', native: 'Real brasileiro', symbol: 'R$' } },
  cities: [
    city(1, 'Paris', 'FR', 2_000_000, 'PPLC'),
    city(2, 'Paris', 'BR', 3_000),
    city(3, 'Brasília', 'BR', 2_500_000, 'PPLC'),
    city(4, 'São Paulo', 'BR', 10_000_000, 'PPLA'),
    city(5, 'Nur-Sultan', 'KZ', 1_000_000, 'PPLC'),
    city(6, 'Lyon', 'FR', 500_000),
  ],
});

describe('the world graph', () => {
  const graph = buildWorldGraph(sources());
  const byId = new Map(graph.map((e) => [e.id, e]));
  const get = (id: string) => {
    const e = byId.get(id);
    assert.ok(e, id);
    return e;
  };

  it('links each country to its capital by name, accents aside, else to the city marked as capital', () => {
    assert.deepEqual(get('/g/country_fr').links!.capital, ['/g/city_1']);
    assert.deepEqual(get('/g/country_br').links!.capital, ['/g/city_3'], 'Brasilia is Brasília');
    assert.deepEqual(get('/g/country_kz').links!.capital, ['/g/city_5'], 'the PPLC city when the name differs');
    assert.deepEqual(get('/g/city_3').links, { containedInPlace: ['/g/country_br'], capitalOf: ['/g/country_br'] });
    assert.equal(get('/g/city_3').descriptions!.en, 'Capital of Brazil');
    assert.equal(get('/g/city_2').descriptions!.en, 'City in Brazil');
  });

  it('gives a capital the city data lacks an entity of its own', () => {
    assert.deepEqual(get('/g/country_ac').links!.capital, ['/g/capital_ac']);
    assert.equal(get('/g/capital_ac').names.en, 'Georgetown');
    assert.deepEqual(get('/g/capital_ac').links!.capitalOf, ['/g/country_ac']);
  });

  it('links countries to continents, official languages and currencies, and names them in their own language', () => {
    const brazil = get('/g/country_br');
    assert.deepEqual(brazil.names, { en: 'Brazil', pt: 'Brasil' });
    assert.deepEqual(brazil.links!.containedInPlace, ['/g/continent_sa']);
    assert.deepEqual(brazil.links!.officialLanguage, ['/g/language_pt']);
    assert.deepEqual(brazil.links!.currency, ['/g/currency_brl']);
    assert.deepEqual(brazil.aliases, { en: ['BRA'] });
    assert.deepEqual(get('/g/country_kz').links!.officialLanguage, [], 'languages the data does not describe are not linked');
    assert.equal(brazil.descriptions!.en, 'Country in South America');
    assert.match(brazil.detailedDescriptions!.en.articleBody, /Its capital is Brasília\. Official language: Portuguese\. Currency: Brazilian Real \(BRL\)\./);
    assert.deepEqual(get('/g/language_fr').names, { en: 'French', fr: 'Français' });
    assert.deepEqual(get('/g/currency_brl').names, { en: 'Brazilian Real', pt: 'Real brasileiro' }, 'a currency of one country is named in its language');
    assert.deepEqual(get('/g/currency_eur').names, { en: 'Euro' }, 'a shared currency keeps its English name');
  });

  it('derives popularity from population, countries and capitals above cities of their size', () => {
    assert.equal(get('/g/city_4').popularity, popularityOf(10_000_000));
    assert.equal(get('/g/city_3').popularity, popularityOf(2_500_000, 1.5));
    assert.equal(get('/g/country_br').popularity, popularityOf(10_000_000 + 2_500_000 + 3_000, 2));
    assert.ok(get('/g/continent_eu').popularity! > get('/g/country_fr').popularity!);
    assert.equal(get('/g/city_4').population, 10_000_000);
    assert.deepEqual(get('/g/city_4').geo, { latitude: 1.5, longitude: -2.25 });
    assert.match(get('/g/city_4').detailedDescriptions!.en.articleBody, /population of 10,000,000\. It lies at 1\.50°N, 2\.25°W\./);
  });

  it('leaves out cities below the minimum population', () => {
    const small = buildWorldGraph(sources(), { minPopulation: 1_000_000 });
    assert.ok(!small.some((e) => e.id === '/g/city_2' || e.id === '/g/city_6'));
    assert.ok(small.some((e) => e.id === '/g/city_4'));
  });

  it('gives every entity a world id, unique', () => {
    assert.equal(byId.size, graph.length);
    assert.ok(graph.every((e) => isWorldId(e.id)));
    assert.ok(!isWorldId('/g/twin_paris'));
  });
});
