// Export: every table of the selected services (and core's rows for them) read in one snapshot, then the bytes of the
// blobs they reference, then the service files kept beside the database, sealed under the master key.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { FilesystemBlobs } from '../blobs/filesystem.ts';
import type { Runtime } from '../runtime.ts';
import type { ServiceId } from '../service.ts';
import { describeTable, quoteId, quoteText } from './columns.ts';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, CONTENT_PIECE, encodeRow, type ArchiveManifest } from './format.ts';
import { fullTextSelect, toPortable } from './fulltext-rows.ts';
import { fileAad, keyCheck, selectManifests, whenLoaded, type Progress } from './common.ts';
import { appliedMigrations, coreNamespaces, planTables } from './scope.ts';
import { withSnapshot } from './snapshot.ts';
import { lineWriter } from './stream.ts';

export interface ExportOptions {
  /** Services to export; default: every running one (and then the archive is complete). */
  services?: ServiceId[];
  onProgress?: Progress;
}

const PROGRAM = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export async function exportArchive(rt: Runtime, out: Writable, options: ExportOptions = {}): Promise<ArchiveManifest> {
  const manifests = selectManifests(rt, options.services);
  const ids = manifests.map((m) => m.id);
  await whenLoaded(rt, manifests);
  const dialect = rt.db.dialect;
  const files = manifests.flatMap((m) => (m.dataFiles ?? []).filter((f) => existsSync(join(rt.options.dataDir, f))).map((f) => `${m.id}/${f}`));
  const writer = lineWriter(out);
  try {
    return await withSnapshot(rt.db, rt.options.databaseUrl, async (snap) => {
      const plan = await planTables(snap.query, dialect, manifests);
      const shapes = new Map(await Promise.all(plan.map(async (t) => [t.name, await describeTable(snap.query, dialect, t.name)] as const)));
      const select = (name: string, where?: string) => {
        const shape = shapes.get(name)!;
        const base = shape.fullText ? fullTextSelect(shape, dialect) : `select * from ${quoteId(name)}`;
        return where ? `${base} where ${where}` : base;
      };
      const tables: Record<string, number> = {};
      for (const t of plan) tables[t.name] = Number((await snap.query(`select count(*) as n from (${select(t.name, t.where)}) counted`))[0].n);
      const blobsWhere = plan.find((t) => t.role === 'blobs')!.where!;
      const blobs = await snap.query(`select hash, size, location from core_blobs where ${blobsWhere} order by hash`);
      const manifest: ArchiveManifest = {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        program: { name: PROGRAM.name, version: PROGRAM.version },
        createdAt: new Date().toISOString(),
        dialect,
        services: ids,
        complete: options.services === undefined,
        migrations: await appliedMigrations(snap.query, [...(await coreNamespaces(snap.query, dialect)), ...ids]),
        keyCheck: keyCheck(rt.vault),
        tables,
        fullText: plan.filter((t) => shapes.get(t.name)!.fullText).map((t) => t.name),
        content: { blobs: blobs.length, bytes: blobs.reduce((sum, b) => sum + Number(b.size), 0) },
        files,
      };
      const total = Object.values(tables).reduce((a, b) => a + b, 0) + blobs.length + files.length;
      let done = 0;
      const step = (n = 1) => options.onProgress?.((done += n), total);
      await writer.write(manifest);

      for (const t of plan) {
        const shape = shapes.get(t.name)!;
        for await (const batch of snap.scan(select(t.name, t.where))) {
          for (const raw of batch) {
            // Where a blob's bytes live is a property of the importing instance, not of the state.
            if (t.role === 'blobs') delete raw.location;
            await writer.write({ table: t.name, row: shape.fullText ? toPortable(raw, shape, dialect) : encodeRow(raw) });
          }
          step(batch.length);
        }
      }

      const onDisk = new FilesystemBlobs(join(rt.options.dataDir, 'blobs'));
      for (const b of blobs) {
        const hash = String(b.hash);
        if (b.location === 'db') {
          for await (const chunks of snap.scan(`select data from core_blob_chunks where hash = ${quoteText(hash)} order by seq`)) {
            for (const c of chunks) await writer.write({ content: hash, data: Buffer.from(c.data as Uint8Array).toString('base64') });
          }
        } else {
          const size = Number(b.size);
          for (let at = 0; at < size || at === 0; at += CONTENT_PIECE) {
            await writer.write({ content: hash, data: (await onDisk.read(hash, at, Math.min(size, at + CONTENT_PIECE))).toString('base64') });
            if (size === 0) break;
          }
        }
        step();
      }

      for (const f of files) {
        const data = await readFile(join(rt.options.dataDir, f.slice(f.indexOf('/') + 1)));
        await writer.write({ file: f, data: rt.vault.encryptBytes(data, fileAad(f)).toString('base64') });
        step();
      }
      await writer.end();
      return manifest;
    });
  } catch (err) {
    out.destroy();
    throw err;
  }
}
