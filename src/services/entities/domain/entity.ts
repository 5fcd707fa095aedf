// The stored form of an entity: language-keyed texts, schema.org types, and a popularity that scales its score.

export interface DetailedDescription {
  articleBody: string;
  url?: string;
  license?: string;
}

export interface EntityImage {
  contentUrl: string;
  url?: string;
  license?: string;
}

export interface Entity {
  /** Machine id such as `/m/0dl567` (rendered as `kg:/m/0dl567`). */
  id: string;
  types: string[];
  names: Record<string, string>;
  aliases?: Record<string, string[]>;
  descriptions?: Record<string, string>;
  detailedDescriptions?: Record<string, DetailedDescription>;
  image?: EntityImage;
  url?: string;
  /** How prominent the entity is; the result score is this times how well it matched. */
  popularity?: number;
  /** Edges of the graph: a property (`containedInPlace`, `capital`, ...) to the ids of the entities it points at. */
  links?: Record<string, string[]>;
  geo?: { latitude: number; longitude: number };
  population?: number;
}

/** Accepts `kg:/m/0abc` or `/m/0abc`; undefined for anything else. */
export function parseEntityId(text: string): string | undefined {
  const id = text.startsWith('kg:') ? text.slice(3) : text;
  return /^\/[a-z]\/[0-9a-z_]{1,64}$/.test(id) ? id : undefined;
}

/** Every type list starts with `Thing`, as in the vocabulary's hierarchy. */
export function withThing(types: string[]): string[] {
  return ['Thing', ...types.filter((t) => t !== 'Thing')];
}
