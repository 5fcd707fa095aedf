/** A `q` the grammar refuses; the service answers 400 reason `invalid`, location `q`. */
export class DriveQueryError extends Error {
  override readonly name = 'DriveQueryError';

  /** 0-based offset into the query text where the problem was found. */
  readonly position: number;

  constructor(problem: string, position: number) {
    super(`Invalid query: ${problem} at position ${position}`);
    this.position = position;
  }
}
