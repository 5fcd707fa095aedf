// The JSON-LD answer: an ItemList of EntitySearchResult, texts as plain strings for one language and as
// language-tagged values for several.
import { withThing, type Entity } from './entity.ts';
import { textFor } from './language.ts';

export const CONTEXT = {
  '@vocab': 'http://schema.org/',
  goog: 'http://schema.googleapis.com/',
  resultScore: 'goog:resultScore',
  detailedDescription: 'goog:detailedDescription',
  EntitySearchResult: 'goog:EntitySearchResult',
  kg: 'http://g.co/kg',
};

type Localised<T> = T | Array<{ '@language': string; '@value': T }>;

function localise<T>(values: Record<string, T> | undefined, languages: string[]): Localised<T> | undefined {
  if (!values) return undefined;
  const present = languages.flatMap((l) => {
    const value = textFor(values, l);
    return value === undefined ? [] : [{ '@language': l, '@value': value }];
  });
  if (present.length === 0) return undefined;
  if (languages.length === 1) return present[0]['@value'];
  return present;
}

export function renderResult(entity: Entity, score: number, languages: string[]) {
  const result: Record<string, unknown> = { '@id': `kg:${entity.id}` };
  const name = localise(entity.names, languages);
  if (name !== undefined) result.name = name;
  result['@type'] = withThing(entity.types);
  const description = localise(entity.descriptions, languages);
  if (description !== undefined) result.description = description;
  if (entity.image) result.image = entity.image;
  const detailed = localise(entity.detailedDescriptions, languages);
  if (detailed !== undefined) result.detailedDescription = detailed;
  if (entity.url) result.url = entity.url;
  return { '@type': 'EntitySearchResult', result, resultScore: score };
}

export function renderList(items: Array<ReturnType<typeof renderResult>>) {
  return { '@context': CONTEXT, '@type': 'ItemList', itemListElement: items };
}
