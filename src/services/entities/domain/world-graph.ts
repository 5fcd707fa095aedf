// The default knowledge graph, derived from public data sets: continents, countries (capital, official languages,
// currencies), languages, currencies and cities, linked to one another. Pure: the sources come in as plain records.
import type { Entity } from './entity.ts';
import { normalize } from './normalize.ts';

export interface CitySource {
  /** GeoNames id. */
  id: number;
  name: string;
  /** ISO 3166-1 alpha-2 code. */
  country: string;
  /** GeoNames feature code: PPLC is a capital. */
  featureCode: string;
  population: number;
  latitude: number;
  longitude: number;
}

export interface CountrySource {
  code: string;
  alpha3?: string;
  name: string;
  native: string;
  aliases: string[];
  continents: string[];
  capital: string;
  currencies: string[];
  languages: string[];
}

export interface WorldSources {
  continents: Record<string, string>;
  countries: CountrySource[];
  languages: Record<string, { name: string; native: string }>;
  currencies: Record<string, { name: string; native: string; symbol: string }>;
  cities: CitySource[];
}

export interface WorldOptions {
  /** Cities below this population are left out (the shipped data starts at 1,000). */
  minPopulation?: number;
}

/** Where city figures come from, and under which licence the derived text stands. */
export const GEONAMES_LICENSE = 'https://creativecommons.org/licenses/by/4.0/';
const geonamesUrl = (id: number) => `https://www.geonames.org/${id}`;

/** How much more prominent than a city of the same population: a country or continent is what people mean first. */
const PROMINENCE = { continent: 2, country: 2, capital: 1.5, city: 1, language: 1, currency: 1 };

const PREFIX = { continent: '/g/continent_', country: '/g/country_', city: '/g/city_', capital: '/g/capital_', language: '/g/language_', currency: '/g/currency_' };

export const worldIds = {
  continent: (code: string) => `${PREFIX.continent}${code.toLowerCase()}`,
  country: (code: string) => `${PREFIX.country}${code.toLowerCase()}`,
  city: (id: number) => `${PREFIX.city}${id}`,
  /** A capital the city data does not hold: known by name only. */
  capital: (countryCode: string) => `${PREFIX.capital}${countryCode.toLowerCase()}`,
  language: (code: string) => `${PREFIX.language}${code.toLowerCase()}`,
  currency: (code: string) => `${PREFIX.currency}${code.toLowerCase()}`,
};

/** True for the ids the world graph gives its entities. */
export const isWorldId = (id: string) => Object.values(PREFIX).some((p) => id.startsWith(p));

/** Popularity grows with the square root of population, so a metropolis outranks a village without drowning it. */
export function popularityOf(population: number, prominence = 1): number {
  return Math.round(Math.sqrt(Math.max(population, 1)) * prominence * 100) / 100;
}

/** 10021295 -> 10,021,295 (Intl's formatter costs more than the rest of a city's entity). */
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const listed = (names: string[]) => (names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/** Every entity of the graph, each city linked to its country, each country to its continents, capital, languages and currencies. */
export function buildWorldGraph(src: WorldSources, options: WorldOptions = {}): Entity[] {
  return [...worldGraphParts(src, options)].flat();
}

/** Cities per part that `worldGraphParts` yields. */
const CITIES_PER_PART = 5000;

/**
 * The entities of `buildWorldGraph`, in the same order, a part at a time (the places, languages and currencies, then
 * the cities a few thousand at a time): a caller on a shared event loop can let others run between parts.
 */
export function* worldGraphParts(src: WorldSources, options: WorldOptions = {}): Generator<Entity[]> {
  const minPopulation = options.minPopulation ?? 0;
  const cities = src.cities.filter((c) => c.population >= minPopulation);
  const countryByCode = new Map(src.countries.map((c) => [c.code, c]));
  const populationOf = new Map<string, number>();
  for (const c of cities) populationOf.set(c.country, (populationOf.get(c.country) ?? 0) + c.population);
  const capitals = linkCapitals(src.countries, cities);
  const byPopulation = (codes: string[]) => [...codes].sort((a, b) => (populationOf.get(b) ?? 0) - (populationOf.get(a) ?? 0));
  const countryName = (code: string) => countryByCode.get(code)?.name ?? code;
  const out: Entity[] = [];

  for (const [code, name] of Object.entries(src.continents)) {
    const members = byPopulation(src.countries.filter((c) => c.continents.includes(code)).map((c) => c.code));
    const population = members.reduce((sum, m) => sum + (populationOf.get(m) ?? 0), 0);
    const body = `${name} is a continent of ${members.length} countries and territories${members.length ? `, the most populous being ${listed(members.slice(0, 3).map(countryName))}` : ''}.`;
    out.push({
      id: worldIds.continent(code),
      types: ['Continent', 'Place'],
      names: { en: name },
      descriptions: { en: 'Continent' },
      detailedDescriptions: { en: { articleBody: body } },
      popularity: popularityOf(population, PROMINENCE.continent),
    });
  }

  const speakers = new Map<string, string[]>();
  const users = new Map<string, string[]>();
  for (const c of src.countries) {
    for (const l of c.languages) speakers.set(l, [...(speakers.get(l) ?? []), c.code]);
    for (const cur of c.currencies) users.set(cur, [...(users.get(cur) ?? []), c.code]);
  }

  for (const c of src.countries) {
    const capital = capitals.get(c.code);
    const continentNames = c.continents.map((k) => src.continents[k]).filter(Boolean);
    const languageNames = c.languages.map((l) => src.languages[l]?.name).filter(Boolean);
    const currencyNames = c.currencies.map((k) => (src.currencies[k] ? `${src.currencies[k].name} (${k})` : k));
    const names: Record<string, string> = { en: c.name };
    const home = c.languages[0];
    if (home && home !== 'en' && c.native) names[home] = c.native;
    const aliases = [...new Set([...c.aliases, ...(c.alpha3 ? [c.alpha3] : []), ...(c.native && c.native !== c.name && (!home || home === 'en') ? [c.native] : [])])].filter((a) => a !== c.name);
    const sentences = [`${c.name} is a country in ${listed(continentNames) || 'no continent'}.`];
    if (capital) sentences.push(`Its capital is ${capital.name}.`);
    if (languageNames.length) sentences.push(`Official ${languageNames.length > 1 ? 'languages' : 'language'}: ${listed(languageNames)}.`);
    if (currencyNames.length) sentences.push(`${currencyNames.length > 1 ? 'Currencies' : 'Currency'}: ${listed(currencyNames)}.`);
    const links: Record<string, string[]> = { containedInPlace: c.continents.map(worldIds.continent) };
    if (capital) links.capital = [capital.id];
    if (c.languages.length) links.officialLanguage = c.languages.filter((l) => src.languages[l]).map(worldIds.language);
    if (c.currencies.length) links.currency = c.currencies.filter((k) => src.currencies[k]).map(worldIds.currency);
    out.push({
      id: worldIds.country(c.code),
      types: ['Country', 'AdministrativeArea', 'Place'],
      names,
      ...(aliases.length ? { aliases: { en: aliases } } : {}),
      descriptions: { en: continentNames.length ? `Country in ${continentNames[0]}` : 'Country' },
      detailedDescriptions: { en: { articleBody: sentences.join(' ') } },
      popularity: popularityOf(populationOf.get(c.code) ?? 0, PROMINENCE.country),
      links,
    });
  }

  for (const [code, lang] of Object.entries(src.languages)) {
    const where = byPopulation(speakers.get(code) ?? []);
    const population = where.reduce((sum, m) => sum + (populationOf.get(m) ?? 0), 0);
    const names: Record<string, string> = { en: lang.name };
    if (lang.native && code !== 'en') names[code] = lang.native;
    const shown = lang.native && lang.native !== lang.name ? `${lang.name} (${lang.native})` : lang.name;
    const body = where.length
      ? `${shown} is an official language of ${where.length === 1 ? countryName(where[0]) : `${where.length} countries and territories, among them ${listed(where.slice(0, 3).map(countryName))}`}.`
      : `${shown} is a language.`;
    out.push({
      id: worldIds.language(code),
      types: ['Language'],
      names,
      descriptions: { en: 'Language' },
      detailedDescriptions: { en: { articleBody: body } },
      popularity: popularityOf(population, PROMINENCE.language),
    });
  }

  for (const [code, cur] of Object.entries(src.currencies)) {
    const where = byPopulation(users.get(code) ?? []);
    const population = where.reduce((sum, m) => sum + (populationOf.get(m) ?? 0), 0);
    const names: Record<string, string> = { en: cur.name };
    // The native name is in the language of the one country that uses it; a shared currency keeps its English name.
    const home = where.length === 1 ? countryByCode.get(where[0])?.languages[0] : undefined;
    if (home && home !== 'en' && cur.native) names[home] = cur.native;
    const body = where.length
      ? `The ${cur.name} (${code}, symbol ${cur.symbol}) is the currency of ${where.length === 1 ? countryName(where[0]) : `${where.length} countries and territories, among them ${listed(where.slice(0, 3).map(countryName))}`}.`
      : `The ${cur.name} (${code}) is a currency.`;
    out.push({
      id: worldIds.currency(code),
      types: ['Intangible'],
      names,
      aliases: { en: [code] },
      descriptions: { en: 'Currency' },
      detailedDescriptions: { en: { articleBody: body } },
      popularity: popularityOf(population, PROMINENCE.currency),
    });
  }

  yield out;

  const capitalOf = new Map<string, string[]>();
  for (const [code, cap] of capitals) capitalOf.set(cap.id, [...(capitalOf.get(cap.id) ?? []), code]);
  for (let i = 0; i < cities.length; i += CITIES_PER_PART) {
    yield cities.slice(i, i + CITIES_PER_PART).map((city) => {
      const id = worldIds.city(city.id);
      return cityEntity(id, city, countryByCode.get(city.country), capitalOf.get(id) ?? [], src.continents, countryName);
    });
  }
  // Capitals the city data lacks still exist, so that every country's capital link leads somewhere.
  const missing: Entity[] = [];
  for (const [code, cap] of capitals) {
    if (!cap.id.startsWith(PREFIX.capital)) continue;
    const country = countryByCode.get(code)!;
    missing.push({
      id: cap.id,
      types: ['City', 'AdministrativeArea', 'Place'],
      names: { en: cap.name },
      descriptions: { en: `Capital of ${country.name}` },
      detailedDescriptions: { en: { articleBody: `${cap.name} is the capital of ${country.name}.` } },
      popularity: popularityOf(0, PROMINENCE.capital),
      links: { containedInPlace: [worldIds.country(code)], capitalOf: [worldIds.country(code)] },
    });
  }
  yield missing;
}

function cityEntity(
  id: string,
  city: CitySource,
  country: CountrySource | undefined,
  capitalOf: string[],
  continents: Record<string, string>,
  countryName: (code: string) => string,
): Entity {
  const where = country ? country.name : city.country;
  const continent = country?.continents[0] ? continents[country.continents[0]] : undefined;
  const isCapital = capitalOf.length > 0;
  const lead = isCapital ? `the capital of ${listed(capitalOf.map(countryName))}` : `a city in ${where}`;
  const place = continent && !isCapital ? `, ${continent}` : '';
  const people = city.population > 0 ? `, with a population of ${count(city.population)}` : '';
  const body = `${city.name} is ${lead}${place}${people}. It lies at ${coordinate(city.latitude, 'N', 'S')}, ${coordinate(city.longitude, 'E', 'W')}.`;
  const links: Record<string, string[]> = { containedInPlace: [worldIds.country(city.country)] };
  if (isCapital) links.capitalOf = capitalOf.map(worldIds.country);
  return {
    id,
    types: ['City', 'AdministrativeArea', 'Place'],
    names: { en: city.name },
    descriptions: { en: isCapital ? `Capital of ${countryName(capitalOf[0])}` : `City in ${where}` },
    detailedDescriptions: { en: { articleBody: body, url: geonamesUrl(city.id), license: GEONAMES_LICENSE } },
    popularity: popularityOf(city.population, isCapital ? PROMINENCE.capital : PROMINENCE.city),
    links,
    geo: { latitude: city.latitude, longitude: city.longitude },
    population: city.population,
  };
}

const coordinate = (value: number, positive: string, negative: string) => `${Math.abs(value).toFixed(2)}°${value >= 0 ? positive : negative}`;

/**
 * Each country's capital: the city of that country with the capital's name (accents and case aside; the most
 * populous if several), else the city the data marks as a national capital, else a capital known by name only.
 */
export function linkCapitals(countries: CountrySource[], cities: CitySource[]): Map<string, { id: string; name: string }> {
  const byCountry = new Map<string, CitySource[]>();
  for (const c of cities) {
    let list = byCountry.get(c.country);
    if (!list) byCountry.set(c.country, (list = []));
    list.push(c);
  }
  const out = new Map<string, { id: string; name: string }>();
  for (const country of countries) {
    if (!country.capital) continue;
    const list = byCountry.get(country.code) ?? [];
    const wanted = normalize(country.capital);
    const best = (found: CitySource[]) => found.sort((a, b) => Number(b.featureCode === 'PPLC') - Number(a.featureCode === 'PPLC') || b.population - a.population)[0];
    const city = best(list.filter((c) => normalize(c.name) === wanted)) ?? best(list.filter((c) => c.featureCode === 'PPLC'));
    out.set(country.code, city ? { id: worldIds.city(city.id), name: city.name } : { id: worldIds.capital(country.code), name: country.capital });
  }
  return out;
}
