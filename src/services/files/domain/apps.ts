// The small registry of installed apps apps.list and apps.get answer from: what opens which types.
export interface AppEntry {
  id: string;
  name: string;
  objectType: string;
  primaryMimeTypes: string[];
  secondaryMimeTypes: string[];
  primaryFileExtensions: string[];
  secondaryFileExtensions: string[];
  supportsCreate: boolean;
  supportsImport: boolean;
}

export const APPS: AppEntry[] = [
  {
    id: '619683526622',
    name: 'Text Editor',
    objectType: 'text file',
    primaryMimeTypes: ['text/plain'],
    secondaryMimeTypes: ['text/html', 'text/csv', 'application/json', 'application/xml'],
    primaryFileExtensions: ['txt'],
    secondaryFileExtensions: ['html', 'csv', 'json', 'xml', 'md'],
    supportsCreate: true,
    supportsImport: false,
  },
  {
    id: '897606708560',
    name: 'Docs',
    objectType: 'document',
    primaryMimeTypes: ['application/vnd.google-apps.document'],
    secondaryMimeTypes: ['text/plain', 'text/html'],
    primaryFileExtensions: [],
    secondaryFileExtensions: ['txt', 'html'],
    supportsCreate: true,
    supportsImport: true,
  },
  {
    id: '691301496089',
    name: 'Sheets',
    objectType: 'spreadsheet',
    primaryMimeTypes: ['application/vnd.google-apps.spreadsheet'],
    secondaryMimeTypes: ['text/csv', 'text/tab-separated-values'],
    primaryFileExtensions: [],
    secondaryFileExtensions: ['csv', 'tsv'],
    supportsCreate: true,
    supportsImport: true,
  },
  {
    id: '143591367024',
    name: 'Image Viewer',
    objectType: 'image',
    primaryMimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'],
    secondaryMimeTypes: [],
    primaryFileExtensions: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg'],
    secondaryFileExtensions: [],
    supportsCreate: false,
    supportsImport: false,
  },
];

/** Apps that open any of the given extensions or MIME types (all apps when both filters are empty). */
export function filterApps(extensions: string[], mimeTypes: string[]): AppEntry[] {
  if (extensions.length === 0 && mimeTypes.length === 0) return APPS;
  return APPS.filter(
    (a) =>
      extensions.some((e) => [...a.primaryFileExtensions, ...a.secondaryFileExtensions].includes(e.toLowerCase())) ||
      mimeTypes.some((m) => [...a.primaryMimeTypes, ...a.secondaryMimeTypes].includes(m.toLowerCase())),
  );
}
