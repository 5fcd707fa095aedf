// An operation is one method of the API (e.g. `regions.get`): its verb, path, who may call it, and what it does.
// Routes and custombatch entries both run operations through `execute`, so access checks and quotas are the same.
import type { TProperties, TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { documented } from '../../../core/http/documented.ts';
import { GoogleError, googleErrorBody, notFound, type GoogleErrorDetail } from '../../../core/google/index.ts';
import { isApiError } from '../../../core/errors.ts';
import { authenticate, refuseMcaData, requireAccount, requireManaged, type Caller } from '../access.ts';
import type { Catalog } from '../catalog.ts';
import type { AccountRow } from '../store.ts';
import { numericId } from '../wire/rules.ts';
import { catalogQuery, pathParams } from '../schemas/common.ts';

export type Verb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may run it: `merchant` needs the `merchantId` path parameter reachable; `managed` also needs `accountId` to be the
 * merchant or its sub-account; `account` needs `accountId` reachable (paths without a merchant); `caller` needs only
 * valid credentials (the operation checks the rest itself).
 */
export type Scope = 'merchant' | 'managed' | 'account' | 'caller';

export interface Call {
  caller: Caller;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** Set by `execute` from the scope: the merchant in the path and, for `managed`/`account`, the account. */
  merchant: AccountRow;
  account: AccountRow;
  /**
   * Access decisions already taken for this caller in the same request: a custombatch checks each entry, and its
   * entries mostly name the same few merchants.
   */
  accessMemo?: Map<string, Promise<unknown>>;
}

export interface Operation {
  method: string;
  verb: Verb;
  path: string;
  scope: Scope;
  /** Path parameters that hold numeric account ids (validated before anything else). */
  numericParams?: string[];
  /** For `managed`: the parameter naming the managed account (default `accountId`; POS uses `targetMerchantId`). */
  accountParam?: string;
  /** What the request carries, for the OpenAPI document and the fuzzer only: `run` checks its input itself. */
  request?: RequestShape;
  run(cat: Catalog, call: Call): Promise<unknown>;
}

/** The documented request of an operation: its own query parameters and its body. */
export interface RequestShape {
  query?: TProperties;
  body?: TSchema;
}

export const PREFIX = '/content/v2.1';

const DEFAULT_NUMERIC: Record<Scope, string[]> = { merchant: ['merchantId'], managed: ['merchantId', 'accountId'], account: ['accountId'], caller: [] };

/** Authorises and runs one operation for an authenticated caller. */
export async function execute(cat: Catalog, op: Operation, input: Omit<Call, 'merchant' | 'account'>): Promise<unknown> {
  const params = { ...input.params };
  const accountParam = op.accountParam ?? 'accountId';
  const numeric = op.numericParams ?? (op.scope === 'managed' ? ['merchantId', accountParam] : DEFAULT_NUMERIC[op.scope]);
  for (const name of numeric) {
    if (params[name] === undefined || params[name] === '') throw new GoogleError(400, `Required parameter: ${name}`, { reason: 'required', location: name, locationType: 'parameter' });
    params[name] = numericId(params[name], name);
  }
  const call = { ...input, params } as Call;
  const memo = <T>(key: string, decide: () => Promise<T>): Promise<T> => {
    if (!call.accessMemo) return decide();
    let decision = call.accessMemo.get(key) as Promise<T> | undefined;
    if (!decision) call.accessMemo.set(key, (decision = decide()));
    return decision;
  };
  if (op.scope === 'merchant' || op.scope === 'account') {
    const id = op.scope === 'merchant' ? params.merchantId : params.accountId;
    call.merchant = await memo(`account:${id}`, () => requireAccount(cat.store, call.caller, id));
    call.account = call.merchant;
    if (op.scope === 'merchant') refuseMcaData(call.merchant, op.method);
  } else if (op.scope === 'managed') {
    const { merchant, account } = await memo(`managed:${params.merchantId}:${params[accountParam]}`, () => requireManaged(cat.store, call.caller, params.merchantId, params[accountParam]));
    call.merchant = merchant;
    call.account = account;
  }
  const quotaMerchant = call.merchant?.id;
  if (quotaMerchant) await cat.quota.charge(quotaMerchant, op.method);
  return op.run(cat, call);
}

/**
 * Fastify path of an operation: `{param}` becomes `:param`. A custom verb after the last parameter
 * (`{conversionSourceId}:undelete`) cannot be split by the router, so the parameter takes the whole segment and
 * `verbSuffix` names what the handler must find and strip.
 */
export function routeOf(path: string): { url: string; verbSuffix?: { param: string; verb: string } } {
  const custom = /\{(\w+)\}:(\w+)$/.exec(path);
  const base = custom ? path.slice(0, -(custom[2].length + 1)) : path;
  return { url: PREFIX + base.replace(/\{(\w+)\}/g, ':$1'), verbSuffix: custom ? { param: custom[1], verb: custom[2] } : undefined };
}

export function registerOperations(app: FastifyInstance, cat: Catalog, ops: Operation[]): void {
  for (const op of ops) {
    const { url, verbSuffix } = routeOf(op.path);
    const params = pathParams(op.path);
    app.route({
      method: op.verb,
      url,
      ...documented({ ...(params ? { params } : {}), querystring: catalogQuery(op.request?.query), ...(op.request?.body ? { body: op.request.body } : {}) }),
      handler: async (req, reply) => {
        const params = { ...((req.params ?? {}) as Record<string, string>) };
        if (verbSuffix) {
          const value = params[verbSuffix.param] ?? '';
          if (!value.endsWith(`:${verbSuffix.verb}`)) throw notFound(`The requested URL ${req.url.split('?')[0]} was not found on this server.`);
          params[verbSuffix.param] = value.slice(0, -(verbSuffix.verb.length + 1));
        }
        const caller = await authenticate(req, cat.ctx);
        const result = await execute(cat, op, {
          caller,
          params,
          query: (req.query ?? {}) as Record<string, unknown>,
          body: req.body,
        });
        if (result === undefined) return reply.code(204).send();
        return result;
      },
    });
  }
}

/** The `errors` object of a failed batch entry: the same code, message and errors[] as the HTTP answer would carry. */
export function entryErrors(err: unknown): { code: number; message: string; errors: Array<{ domain: string; reason: string; message: string }> } {
  if (isApiError(err)) {
    const body = googleErrorBody(err.status, err.message, err.details as GoogleErrorDetail);
    return { code: err.status, message: err.message, errors: (body.error.errors ?? []).map(({ domain, reason, message }) => ({ domain, reason, message })) };
  }
  throw err;
}
