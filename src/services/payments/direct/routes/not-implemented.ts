// Direct-post operations of the real API that this gateway does not offer: a clear Error instead of "no operation".
import type { FastifyInstance } from 'fastify';
import { payError } from '../../contract.ts';

const TOKENISATION = ['/direct/tokenise', '/direct/token', '/direct/cres/tokenise/:id'];

export function registerNotImplemented(app: FastifyInstance): void {
  for (const path of TOKENISATION) {
    app.post(path, async () => {
      throw payError(422, 'P031', 'The direct-post tokenisation flow is not supported by this gateway; use /direct/auth.');
    });
  }
}
