// HCL parsing for the policy parser, run on a worker thread (core/off-loop.ts). The parser is a Go program compiled to
// WebAssembly: loading it took about 100 ms and each parse takes 4 ms or more (70 ms for 1,000 paths), all of which
// held every service in the process while it ran on the event loop. The worker also keeps its tens of megabytes out
// of the main thread, and stops when policies have not been written for a while.
import { parameterBlocksAsAttributes } from './hcl-parameter-blocks.ts';

/** The parser refused the text; the message is the parser's own. */
export class HclSyntaxError extends Error {
  override name = 'HclSyntaxError';
}

/**
 * The document `text` describes, as the parser gives it (blocks become lists of objects; the parameter maps are maps
 * whichever form they were written in).
 */
export async function parseHcl(file: string, text: string): Promise<unknown> {
  const { parse } = await import('@cdktf/hcl2json');
  try {
    return await parse(file, parameterBlocksAsAttributes(text));
  } catch (err) {
    throw new HclSyntaxError(String((err as Error)?.message ?? err));
  }
}
