// State export and import: one portable archive of the selected services (see format.ts for its layout).
export { exportArchive, type ExportOptions } from './export.ts';
export { importArchive, type ImportOptions, type ImportSummary } from './import.ts';
export { exportToFile, importFromFile, readManifest } from './file.ts';
export { ArchiveError, type ArchiveManifest } from './format.ts';
export { archiveDigest } from './digest.ts';
export { selectManifests } from './common.ts';
