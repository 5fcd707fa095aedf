// A concrete operation behind a catch-all route (a service that routes a whole subtree itself), and the JSON schemas
// of what it reads, standing in for the route schema Fastify cannot hold for one path of a wildcard.

/** A JSON schema, as TypeBox writes them (the subset test/fuzz/arbitraries.ts draws values from). */
export type JsonSchema = Record<string, any>;

export interface WildcardSeed {
  /** The path the wildcard stands for, without a leading slash. */
  path: string;
  /** The methods the operation answers (the route's own methods when absent). */
  methods?: string[];
  schema?: { body?: JsonSchema; querystring?: JsonSchema };
}
