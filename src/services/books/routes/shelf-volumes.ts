// The volumes of one shelf, in shelf order, as books#volumes.
import type { Library } from '../library.ts';
import type { Page, Projection } from './params.ts';

export async function shelfVolumes(library: Library, userId: string, shelfId: number, page: Page, projection: Projection, reader?: string) {
  const { total, volumeIds } = await library.shelves.volumes(userId, shelfId, page.startIndex, page.maxResults);
  const items = await library.render(await library.catalog.getMany(volumeIds), projection, reader);
  return volumesAnswer(total, items);
}

export const volumesAnswer = (totalItems: number, items: Record<string, unknown>[]) => ({ kind: 'books#volumes', totalItems, ...(items.length ? { items } : {}) });
