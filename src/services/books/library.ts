// Users' libraries: the fixed shelves with their state, the rules of changing them, and volumes as a reader sees them.
import { GoogleError, invalidArgument, notFound } from '../../core/google/index.ts';
import type { ServiceContext } from '../../core/service.ts';
import type { CatalogStore } from './catalog-store.ts';
import { SHELVES, moveWithin, shelfNamed, type ShelfKind } from './domain/shelves.ts';
import { renderVolume, userInfoOf, type ShelfView } from './domain/render.ts';
import type { CatalogVolume } from './domain/catalog-volume.ts';
import type { ShelfStore } from './shelf-store.ts';

export const volumeNotFound = (volumeId: string) => notFound(`The volume ID could not be found: ${volumeId}`);

export class Library {
  readonly ctx: ServiceContext;
  readonly catalog: CatalogStore;
  readonly shelves: ShelfStore;

  constructor(ctx: ServiceContext, catalog: CatalogStore, shelves: ShelfStore) {
    this.ctx = ctx;
    this.catalog = catalog;
    this.shelves = shelves;
  }

  /** A user's shelves; a library nobody changed yet dates from when the user was created. */
  async views(userId: string): Promise<ShelfView[]> {
    const user = await this.ctx.identity.getPrincipal(userId);
    if (!user) throw notFound(`User ${userId} was not found.`);
    const states = await this.shelves.states(userId);
    return SHELVES.map((shelf) => {
      const s = states.get(shelf.id);
      return {
        shelf,
        access: s?.access ?? shelf.access,
        created: user.createdAt,
        updated: s?.updatedAt ?? user.createdAt,
        volumeCount: s?.volumeCount ?? 0,
        volumesLastUpdated: s?.volumesUpdatedAt ?? user.createdAt,
      };
    });
  }

  async view(userId: string, shelfParam: string, publicOnly: boolean): Promise<ShelfView> {
    const shelf = shelfOf(shelfParam);
    const view = (await this.views(userId)).find((v) => v.shelf.id === shelf.id)!;
    // Another user's private shelf is indistinguishable from a missing one.
    if (publicOnly && view.access !== 'PUBLIC') throw shelfNotFound(shelfParam);
    return view;
  }

  selfLink(userId: string, shelfId: number): string {
    return `${this.ctx.baseUrl}/books/v1/users/${encodeURIComponent(userId)}/bookshelves/${shelfId}`;
  }

  async addVolume(userId: string, shelfParam: string, volumeId: string): Promise<void> {
    const shelf = editableShelf(shelfParam);
    const now = this.ctx.clock.now();
    await this.shelves.change(userId, shelf.id, async (order, tx) => {
      if (!(await this.catalog.exists(volumeId, tx))) throw volumeNotFound(volumeId);
      // Adding a volume already there changes nothing.
      if (order.includes(volumeId)) return;
      await this.shelves.append(tx, userId, shelf.id, volumeId, order.length, now);
    });
  }

  async removeVolume(userId: string, shelfParam: string, volumeId: string): Promise<void> {
    const shelf = editableShelf(shelfParam);
    const now = this.ctx.clock.now();
    await this.shelves.change(userId, shelf.id, async (order, tx) => {
      if (!order.includes(volumeId)) throw notOnShelf(volumeId, shelf);
      await this.shelves.remove(tx, userId, shelf.id, [volumeId], now);
      // Positions stay 0..n-1: the volumes after the removed one move up.
      await this.shelves.reorder(
        tx,
        userId,
        shelf.id,
        order,
        order.filter((v) => v !== volumeId),
        now,
      );
    });
  }

  async clearVolumes(userId: string, shelfParam: string): Promise<void> {
    const shelf = editableShelf(shelfParam);
    const now = this.ctx.clock.now();
    await this.shelves.change(userId, shelf.id, async (order, tx) => {
      // Clearing an empty shelf removes no volume: nothing changes, as adding a volume already there.
      if (order.length > 0) await this.shelves.remove(tx, userId, shelf.id, 'all', now);
    });
  }

  async moveVolume(userId: string, shelfParam: string, volumeId: string, position: number): Promise<void> {
    const shelf = editableShelf(shelfParam);
    const now = this.ctx.clock.now();
    await this.shelves.change(userId, shelf.id, async (order, tx) => {
      if (!order.includes(volumeId)) throw notOnShelf(volumeId, shelf);
      const after = moveWithin(order, volumeId, position);
      if (!after) throw invalidArgument(`Invalid volume position ${position}: bookshelf ${shelf.id} holds ${order.length} volumes (positions 0 to ${order.length - 1}).`, 'volumePosition');
      await this.shelves.reorder(tx, userId, shelf.id, order, after, now);
    });
  }

  /** Volumes as the wire shows them; a reader (a token's user) sees whether each is in their library. */
  async render(volumes: CatalogVolume[], projection: 'full' | 'lite', reader?: string): Promise<Record<string, unknown>[]> {
    const added = reader ? await this.shelves.addedTimes(reader, volumes.map((v) => v.id)) : undefined;
    return volumes.map((v) => renderVolume(v, { baseUrl: this.ctx.baseUrl, projection, userInfo: added ? userInfoOf(added.get(v.id)) : undefined }));
  }
}

const shelfNotFound = (param: string) => notFound(`The bookshelf id or name does not exist: ${param}`);

/** The shelf a path names, or a 404. */
export function shelfOf(param: string): ShelfKind {
  const shelf = shelfNamed(param);
  if (!shelf) throw shelfNotFound(param);
  return shelf;
}

function editableShelf(param: string): ShelfKind {
  const shelf = shelfOf(param);
  if (!shelf.editable) {
    throw new GoogleError(403, `Bookshelf ${shelf.id} (${shelf.title}) is managed by Books; its volumes cannot be changed.`, { reason: 'forbidden' });
  }
  return shelf;
}

const notOnShelf = (volumeId: string, shelf: ShelfKind) => notFound(`Volume ${volumeId} is not on bookshelf ${shelf.id} (${shelf.title}).`);
