// The book library is not implemented yet: its listener answers every request with a clear 501.
import { placeholderService } from '../placeholder.ts';

export const manifest = placeholderService('books', 'book library');
