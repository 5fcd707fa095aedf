// The only source of "now" in the program. Manual mode lets tests and users move time (expiries, batches, lockouts).
import { EventEmitter } from 'node:events';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  readonly mode: 'system' | 'manual';
  /** Set the time (manual mode only). */
  set(ms: number): void;
  /** Move time forward by `ms` (manual mode only). */
  advance(ms: number): void;
  /** Fires with the new time whenever manual time moves, so schedulers can react at once. */
  onChange(listener: (now: number) => void): () => void;
}

export class ClockModeError extends Error {}

export class SystemClock implements Clock {
  readonly mode = 'system' as const;
  now(): number {
    return Date.now();
  }
  set(): void {
    throw new ClockModeError('the clock is in system mode; start with --clock manual to set it');
  }
  advance(): void {
    throw new ClockModeError('the clock is in system mode; start with --clock manual to advance it');
  }
  onChange(): () => void {
    return () => {};
  }
}

export class ManualClock implements Clock {
  readonly mode = 'manual' as const;
  #now: number;
  readonly #events = new EventEmitter();

  constructor(start: number) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  set(ms: number): void {
    if (!Number.isFinite(ms)) throw new ClockModeError('time must be a finite number of milliseconds');
    this.#now = Math.trunc(ms);
    this.#events.emit('change', this.#now);
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new ClockModeError('advance takes a non-negative duration');
    this.set(this.#now + ms);
  }
  onChange(listener: (now: number) => void): () => void {
    this.#events.on('change', listener);
    return () => this.#events.off('change', listener);
  }
}
