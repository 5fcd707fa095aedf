// GET /clock and POST /clock: read the time; in manual mode set it or move it forward, then run what became due.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ClockModeError } from '../core/clock.ts';
import type { Runtime } from '../core/runtime.ts';
import { adminError } from './errors.ts';

const MoveClock = Type.Object(
  {
    set: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    advance: Type.Optional(Type.Union([Type.String(), Type.Integer({ minimum: 0 })])),
  },
  { additionalProperties: false },
);

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90s", "1h30m", "2d" or a number of milliseconds. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return value;
  if (/^\d+$/.test(value)) return Number(value);
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) return undefined;
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]], 0));
}

export function clockRoutes(app: FastifyInstance, rt: Runtime): void {
  const view = () => ({ mode: rt.clock.mode, now: new Date(rt.clock.now()).toISOString(), nowMs: rt.clock.now() });
  app.get('/clock', async () => view());
  app.post('/clock', { schema: { body: MoveClock } }, async (req) => {
    const body = req.body as { set?: string | number; advance?: string | number };
    if (body.set === undefined && body.advance === undefined) throw adminError(400, 'give "set" (a timestamp) or "advance" (a duration)');
    if (rt.clock.mode !== 'manual') throw adminError(409, 'the clock is in system mode; start with --clock manual to move it');
    // The scheduler also reacts to the move; counting completions around it includes the jobs its pass ran.
    const before = rt.jobs.completed;
    try {
      if (body.set !== undefined) {
        const ms = typeof body.set === 'number' ? body.set : Date.parse(body.set);
        if (Number.isNaN(ms)) throw adminError(400, `"set" is not a timestamp: ${body.set}`);
        rt.clock.set(ms);
      }
      if (body.advance !== undefined) {
        const ms = parseDuration(body.advance);
        if (ms === undefined) throw adminError(400, `"advance" is not a duration such as 90s, 2h or 3d: ${body.advance}`);
        rt.clock.advance(ms);
      }
    } catch (err) {
      if (err instanceof ClockModeError) throw adminError(400, err.message);
      throw err;
    }
    await rt.persistClock();
    await rt.jobs.runDue({ fresh: true });
    await rt.outbox.deliverDue({ fresh: true });
    return { ...view(), jobsRun: rt.jobs.completed - before };
  });
}
