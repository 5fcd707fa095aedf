// PUT /paylink/attachments/{uploadId}: the pre-signed address a bill payment returns for an attachment too large to
// send inline. It accepts one PDF, once, within 24 hours of the token's creation; no API key (the address is the key).
import type { FastifyInstance } from 'fastify';
import { payError, type PaymentsDeps } from '../../contract.ts';
import { EV } from '../events.ts';
import { isPdf } from '../request.ts';
import type { PaylinkStore } from '../store.ts';
import { uploadHash } from '../tokens.ts';
import { PAYLINK_SCHEMAS } from './schemas.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export async function registerUploads(app: FastifyInstance, deps: PaymentsDeps, store: PaylinkStore): Promise<void> {
  // A scope of its own, so the PDF body parser applies to this route only.
  await app.register(async (scope) => {
    scope.addContentTypeParser(['application/pdf', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_req, body, done) => done(null, body));
    scope.put('/paylink/attachments/:uploadId', PAYLINK_SCHEMAS.upload, async (req, reply) => {
      const { uploadId } = req.params as { uploadId: string };
      const attachment = await store.attachmentByUpload(uploadHash(deps, uploadId));
      const now = deps.ctx.clock.now();
      if (!attachment) throw payError(403, 'S004', 'This upload address is not valid (unknown or already used).');
      if (attachment.uploadExpiresAt === null || attachment.uploadExpiresAt <= now) throw payError(403, 'S004', 'This upload address has expired.');
      const body = req.body;
      if (!Buffer.isBuffer(body) || body.length === 0 || !isPdf(body)) throw payError(400, 'P045', 'The upload must be a PDF document (Content-Type application/pdf).');
      if (!(await store.completeUpload(attachment.id, body, now))) throw payError(403, 'S004', 'This upload address is not valid (unknown or already used).');
      await store.addEvent(attachment.tokenSeq, now, EV.attachmentUploaded, `Attachment ${attachment.name} uploaded (${body.length} bytes)`);
      return deps.send(req, reply, 'Acknowledgement', deps.ack(req, '001', `Attachment ${attachment.name} received`));
    });
  });
}
