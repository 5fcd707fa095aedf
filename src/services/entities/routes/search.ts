// GET /v1/entities:search (also with its colon percent-encoded, entities%3Asearch) — parse and check the parameters,
// look up ids or search the index, render JSON-LD.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AnswerCache } from '../../../core/http/answer-cache.ts';
import { documented } from '../../../core/http/documented.ts';
import { authenticateGoogle, invalidArgument, notFound, refuseUnknownParameters } from '../../../core/google/index.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { parseEntityId, type Entity } from '../domain/entity.ts';
import { canonicalTag, matchedLanguages } from '../domain/language.ts';
import { matchWeight } from '../domain/match.ts';
import { byScore, scoreOf } from '../domain/rank.ts';
import { renderList, renderResult } from '../domain/render.ts';
import type { EntityGraph, Ranked } from '../graph.ts';
import { readSettings } from '../settings.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, SearchQuery } from './schemas/search.ts';

export { DEFAULT_LIMIT, MAX_LIMIT };

/** The method's own parameters; with the system parameters every Google API takes, nothing else is accepted. */
const PARAMETERS = new Set(['query', 'ids', 'languages', 'types', 'indent', 'prefix', 'limit']);

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
/** A repeated parameter whose values may each be a comma-separated list; empty items are ignored. */
const commaList = (v: unknown): string[] => list(v).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
const single = (v: unknown): string | undefined => (v === undefined ? undefined : Array.isArray(v) ? String(v[v.length - 1]) : String(v));

function booleanParam(name: string, raw: unknown): boolean {
  const v = single(raw);
  if (v === undefined) return false;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw invalidArgument(`Invalid value at '${name}' (TYPE_BOOL), "${v}"`, name);
}

const byEncodedColon = documented({
  params: Type.Object({ method: Type.String({ description: 'entities:search, its colon percent-encoded (entities%3Asearch).' }) }),
  querystring: SearchQuery,
});

export function searchRoute(app: FastifyInstance, ctx: ServiceContext, graph: EntityGraph): void {
  // An answer is a function of the path, the query and the graph, which only this process changes on SQLite (on
  // PostgreSQL other instances may write documents, and none are kept).
  const answers = ctx.db.dialect === 'sqlite' ? new AnswerCache(app, readSettings(ctx.settings).answerCacheBudget) : undefined;
  if (answers) graph.onChange(() => answers.invalidate());

  const search = async (req: FastifyRequest, reply: FastifyReply) => {
    // Knowledge Graph Search is an API-key API: a request with no credential is refused as Google refuses it there.
    await authenticateGoogle(req, ctx.identity, { scopes: ['cloud-platform'], apiKey: true, missingCredential: 'apiKey' });
    if (req.headers['content-length'] && req.headers['content-length'] !== '0') {
      throw invalidArgument('The request body must be empty.');
    }
    // Only an answer of 200 is kept: the same path and query were valid then and are valid now.
    if (answers?.answered(req, reply)) return reply;
    const q = req.query as Record<string, unknown>;
    refuseUnknownParameters(q, PARAMETERS);
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
    const languages = commaList(q.languages).map((l) => {
      const tag = canonicalTag(l);
      if (!tag) throw invalidArgument(`Invalid language code: ${l}`, 'languages');
      return tag;
    });
    const langs = languages.length ? [...new Set(languages)] : ['en'];
    const matched = matchedLanguages(langs);
    const types = [...new Set(commaList(q.types))];
    // Ids hold no comma, so `ids=A,B` is read as `ids=A&ids=B`, as languages and types are.
    const ids = commaList(q.ids).map((raw) => {
      const id = parseEntityId(raw);
      if (!id) throw invalidArgument(`Invalid entity id: ${raw}`, 'ids');
      return id;
    });
    if (query === undefined && ids.length === 0) throw invalidArgument('Either query or ids must be given.', 'query');
    // Indented as `prettyPrint` indents, so the answer keeps its JSON content type (a serializer set here would drop it).
    if (indent && req.google) req.google.pretty = true;

    const ranked = ids.length
      ? byIds(await graph.documents([...new Set(ids)]), { query, langs: matched, types, prefix })
      : await graph.search({ query: query!, prefix, languages: matched, types, limit });
    return renderList(ranked.slice(0, limit).map((r) => renderResult(r.entity, r.score, langs)));
  };

  app.get('/v1/entities::search', documented({ querystring: SearchQuery }), search);
  // The router matches the path as sent: a client that percent-encodes the method's colon reaches it here.
  app.get('/v1/:method', byEncodedColon, async (req, reply) => {
    if ((req.params as { method: string }).method !== 'entities:search') {
      throw notFound(`The requested URL ${req.url.split('?')[0]} was not found on this server.`);
    }
    return search(req, reply);
  });
}

/** Looked up by id: every named entity that exists, of one of the types, matching the query when one is given too. */
function byIds(entities: Entity[], c: { query?: string; langs: string[]; types: string[]; prefix: boolean }): Ranked[] {
  const typed = c.types.length ? entities.filter((e) => ['Thing', ...e.types].some((t) => c.types.includes(t))) : entities;
  return typed
    .map((entity) => ({ entity, weight: c.query === undefined ? 1 : weightOf(entity, c.query, c.langs, c.prefix) }))
    .filter((r) => r.weight > 0)
    .map((r) => ({ id: r.entity.id, entity: r.entity, score: scoreOf(r.entity.popularity, r.weight) }))
    .sort(byScore);
}

function weightOf(entity: Entity, query: string, langs: string[], prefix: boolean): number {
  const names = langs.map((l) => entity.names[l]).filter((n): n is string => n !== undefined);
  const aliases = langs.flatMap((l) => entity.aliases?.[l] ?? []);
  return matchWeight(query, { names, aliases }, prefix);
}
