// GET /v1/entities:search — parse and check the parameters, find candidates, rank them, render JSON-LD.
import type { FastifyInstance } from 'fastify';
import { authenticateGoogle, invalidArgument } from '../../../core/google/index.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { parseEntityId, type Entity } from '../domain/entity.ts';
import { matchWeight } from '../domain/match.ts';
import { normalize } from '../domain/normalize.ts';
import { byScore, scoreOf, topMatches, type Ranked } from '../domain/rank.ts';
import { renderList, renderResult } from '../domain/render.ts';
import type { EntityStore } from '../store.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 500;

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
const single = (v: unknown): string | undefined => (v === undefined ? undefined : Array.isArray(v) ? String(v[v.length - 1]) : String(v));

function booleanParam(name: string, raw: unknown): boolean {
  const v = single(raw);
  if (v === undefined) return false;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw invalidArgument(`Invalid value at '${name}' (TYPE_BOOL), "${v}"`, name);
}

export function searchRoute(app: FastifyInstance, ctx: ServiceContext, store: EntityStore): void {
  app.get('/v1/entities::search', async (req, reply) => {
    await authenticateGoogle(req, ctx.identity, { scopes: ['cloud-platform'], apiKey: true });
    if (req.headers['content-length'] && req.headers['content-length'] !== '0') {
      throw invalidArgument('The request body must be empty.');
    }
    const q = req.query as Record<string, unknown>;
    const query = single(q.query);
    const prefix = booleanParam('prefix', q.prefix);
    const indent = booleanParam('indent', q.indent);
    const limitRaw = single(q.limit);
    let limit = DEFAULT_LIMIT;
    if (limitRaw !== undefined) {
      limit = Number(limitRaw);
      if (!/^-?\d+$/.test(limitRaw)) throw invalidArgument(`Invalid value at 'limit' (TYPE_INT32), "${limitRaw}"`, 'limit');
      if (limit < 1 || limit > MAX_LIMIT) throw invalidArgument(`limit must be between 1 and ${MAX_LIMIT}.`, 'limit');
    }
    const languages = list(q.languages).flatMap((l) => l.split(',')).map((l) => l.trim()).filter(Boolean);
    for (const l of languages) if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(l)) throw invalidArgument(`Invalid language code: ${l}`, 'languages');
    const langs = languages.length ? [...new Set(languages)] : ['en'];
    const types = [...new Set(list(q.types).flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean))];
    const rawIds = list(q.ids);
    const ids = rawIds.map((raw) => {
      const id = parseEntityId(raw);
      if (!id) throw invalidArgument(`Invalid entity id: ${raw}`, 'ids');
      return id;
    });
    if (query === undefined && ids.length === 0) throw invalidArgument('Either query or ids must be given.', 'query');
    if (indent) reply.serializer((p: unknown) => JSON.stringify(p, null, 2));

    const weigh = (entity: Entity) => (query === undefined ? 1 : weightOf(entity, query, langs, prefix));
    let ranked: Ranked[];
    if (ids.length) {
      // Looked up by id: every named entity that exists (and matches the query, when one is given too).
      ranked = (await store.byIds(ids, types))
        .map((entity) => ({ entity, weight: weigh(entity) }))
        .filter((r) => r.weight > 0)
        .map((r) => ({ entity: r.entity, score: scoreOf(r.entity.popularity, r.weight) }))
        .sort(byScore);
    } else {
      const words = normalize(query!).split(' ').filter(Boolean);
      if (words.length === 0) return renderList([]);
      const candidates = await store.candidates({ words, lastIsPrefix: prefix, languages: langs, types });
      ranked = await topMatches(candidates, limit, (chunk) => store.documents(chunk), weigh);
    }
    return renderList(ranked.slice(0, limit).map((r) => renderResult(r.entity, r.score, langs)));
  });
}

function weightOf(entity: { names: Record<string, string>; aliases?: Record<string, string[]> }, query: string, langs: string[], prefix: boolean): number {
  const names = langs.map((l) => entity.names[l]).filter((n): n is string => n !== undefined);
  const aliases = langs.flatMap((l) => entity.aliases?.[l] ?? []);
  return matchWeight(query, { names, aliases }, prefix);
}
