// Each request gets a logger bound to its id, but most requests never write a line: at the default level (warn) only
// failures do. A pino child costs every request its bindings' serialisation and a rebuild of its level methods
// (about 2 % of a small read's main thread), so the request's logger makes the child on its first line only.
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type Level = (typeof LEVELS)[number];
type LogCall = (...args: unknown[]) => void;

class RequestLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  /** The pino child, made once. */
  get bound(): Logger {
    return (this.#child ??= this.#parent.child(this.#bindings));
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.bound.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.bound.bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.bound.child(bindings, options);
  }

  silent(): void {}
}

// A line below the logger's level is dropped without making the child; any other goes through it.
for (const level of LEVELS) {
  Object.defineProperty(RequestLogger.prototype, level, {
    value: function (this: RequestLogger, ...args: unknown[]) {
      if (!this.isLevelEnabled(level)) return;
      (this.bound[level as Level] as LogCall)(...args);
    },
  });
}

/**
 * Fastify's `childLoggerFactory`: a request's logger whose pino child is made on its first line. A route with its
 * own log level gets a child at once, as Fastify would make it.
 */
export function requestLogger(parent: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger {
  if (Object.keys(options).length > 0) return parent.child(bindings, options);
  return new RequestLogger(parent, bindings) as unknown as Logger;
}
