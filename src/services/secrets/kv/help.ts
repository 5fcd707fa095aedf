// Help text and OpenAPI path items of the KV engines (paths relative to the mount).
const op = (summary: string) => ({ summary, responses: { '200': { description: 'OK' }, '204': { description: 'empty body' } } });
const pathParam = [{ name: 'path', in: 'path', description: 'Location of the secret.', required: true, schema: { type: 'string' } }];

export function kvHelp(version: 1 | 2): { help: string; paths: Record<string, unknown> } {
  if (version === 1) {
    return {
      help: '## DESCRIPTION\n\nThe KV backend (version 1) reads and writes arbitrary secrets to the storage backend. Secrets are not versioned.\n\n## PATHS\n\n    ^.*$\n        Pass-through secret storage.\n',
      paths: {
        '/{path}': { parameters: pathParam, get: op('Retrieve the secret at the specified location.'), post: op('Store a secret at the specified location.'), delete: op('Deletes the secret at the specified location.') },
      },
    };
  }
  return {
    help: '## DESCRIPTION\n\nThis backend provides a versioned key-value store.\n\n## PATHS\n\n    ^config$\n    ^data/.*$\n    ^delete/.*$\n    ^destroy/.*$\n    ^metadata/.*$\n    ^subkeys/.*$\n    ^undelete/.*$\n',
    paths: {
      '/config': { get: op('Read the backend level settings.'), post: op('Configure backend level settings that are applied to every key in the key-value store.') },
      '/data/{path}': { parameters: pathParam, get: op('Read a version of the secret.'), post: op('Write a new version of the secret.'), patch: op('Patch the current version.'), delete: op('Soft-delete the latest version.') },
      '/delete/{path}': { parameters: pathParam, post: op('Marks one or more versions as deleted.') },
      '/destroy/{path}': { parameters: pathParam, post: op('Permanently removes one or more versions.') },
      '/metadata/{path}': { parameters: pathParam, get: op('Read the metadata and versions.'), post: op('Configure the key.'), patch: op('Patch the metadata.'), delete: op('Delete the key and all versions.') },
      '/subkeys/{path}': { parameters: pathParam, get: op('Read the structure of a secret without values.') },
      '/undelete/{path}': { parameters: pathParam, post: op('Undeletes one or more versions.') },
    },
  };
}
