// The fixed bookshelves every user has, which of them users may change, and the order of volumes on a shelf.

export type ShelfAccess = 'PUBLIC' | 'PRIVATE';

export interface ShelfKind {
  id: number;
  title: string;
  /** Visibility unless the user's shelf says otherwise. */
  access: ShelfAccess;
  /** Whether addVolume, removeVolume, clearVolumes and moveVolume are open to the user; Books manages the others. */
  editable: boolean;
}

export const SHELVES: readonly ShelfKind[] = [
  { id: 0, title: 'Favorites', access: 'PUBLIC', editable: true },
  { id: 1, title: 'Purchased', access: 'PRIVATE', editable: false },
  { id: 2, title: 'To read', access: 'PUBLIC', editable: true },
  { id: 3, title: 'Reading now', access: 'PUBLIC', editable: true },
  { id: 4, title: 'Have read', access: 'PUBLIC', editable: true },
  { id: 5, title: 'Reviewed', access: 'PUBLIC', editable: false },
  { id: 7, title: 'My Google eBooks', access: 'PRIVATE', editable: false },
  { id: 8, title: 'Books for you', access: 'PRIVATE', editable: false },
  { id: 9, title: 'Browsing history', access: 'PRIVATE', editable: false },
];

/** The shelf a path names, by id ("3") or by title ("Reading now", any case); undefined when there is none. */
export function shelfNamed(param: string): ShelfKind | undefined {
  if (/^\d{1,9}$/.test(param)) return SHELVES.find((s) => s.id === Number(param));
  const title = param.trim().toLowerCase();
  return SHELVES.find((s) => s.title.toLowerCase() === title);
}

/**
 * The shelf's order after moving `volumeId` to `position` (0 puts it before the current first volume, 1 between the
 * first and the second, ...), counted among the other volumes; undefined when the position is out of range.
 */
export function moveWithin(order: readonly string[], volumeId: string, position: number): string[] | undefined {
  const others = order.filter((v) => v !== volumeId);
  if (others.length === order.length) return undefined;
  if (!Number.isInteger(position) || position < 0 || position > others.length) return undefined;
  return [...others.slice(0, position), volumeId, ...others.slice(position)];
}
