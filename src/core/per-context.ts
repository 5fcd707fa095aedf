// One object per service context, made on first use: a service's routes, jobs, admin routes and commands are wired
// separately and must share it (its caches, its stores).
import type { ServiceContext } from './service.ts';

/** A function answering `build(ctx)`, built once per context and kept while the context lives. */
export function onePerContext<T>(build: (ctx: ServiceContext) => T): (ctx: ServiceContext) => T {
  const built = new WeakMap<ServiceContext, T>();
  return (ctx) => {
    let value = built.get(ctx);
    if (value === undefined) {
      value = build(ctx);
      built.set(ctx, value);
    }
    return value;
  };
}
