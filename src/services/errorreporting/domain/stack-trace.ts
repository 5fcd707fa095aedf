// Recognises the stack-trace formats Error Reporting accepts in `message` and extracts what grouping needs:
// the exception type and the frames, innermost first. Each parser is strict enough that free text is not a trace.
// A message may be a megabyte long, so every line is read in time linear in its length: the frame formats whose
// regular expressions would backtrack (a lazy name before a lazy location, `.rb` files, PHP's `file(line)`) are read
// by the scanners below instead (a line of 100,000 ` (` held the event loop for seconds), and no parser rescans the
// message for each line it looks at.

export type TraceLanguage = 'javascript' | 'python' | 'java' | 'csharp' | 'go' | 'ruby' | 'php';

export interface ParsedTrace {
  language: TraceLanguage;
  /** The exception or error class, e.g. `TypeError`, `java.lang.IllegalStateException`; `panic` for Go. */
  exceptionType: string;
  /** Frame identities (function names, or file paths for anonymous frames), innermost first; no line numbers. */
  frames: string[];
}

type Parser = (lines: string[]) => ParsedTrace | undefined;

/** The first recognised trace in `message`, or undefined. Order matters: the stricter formats go first. */
export function parseStackTrace(message: string): ParsedTrace | undefined {
  const lines = message.replace(/\r\n?/g, '\n').split('\n');
  for (const parser of PARSERS) {
    const found = parser(lines);
    if (found) return found;
  }
  return undefined;
}

// ---- JavaScript (V8 `error.stack`) ----------------------------------------------------------------------------------
// TypeError: boom
//     at fn (/app/file.js:10:5)
//     at /app/file.js:3:1
// Node.js names its own errors with a code (`TypeError [ERR_INVALID_ARG_TYPE]: ...`), and a message may run over several
// lines (assert's diffs), all of them before the first frame.
const JS_HEADER = /^\s*(?:Uncaught\s+)?([A-Za-z_$][\w$.]*)(?:\s\[[\w$.-]+\])?(?::\s?.*)?$/;
const JS_FRAME_PREFIX = /^\s+at\s+(?:async\s+)?/;
const JS_LOCATION = /^(?:.+):\d+:\d+$|^native$|^<anonymous>$|^index \d+$/;

const parseJavaScript: Parser = (lines) => {
  const found = headedFrames(
    lines,
    (line) => (/^\s+at\s/.test(line) ? null : JS_HEADER.exec(line)),
    (line) => {
      const m = jsFrame(line);
      return m && JS_LOCATION.test(m.location) ? (m.name ?? stripPosition(m.location)) : undefined;
    },
  );
  return found && { language: 'javascript', exceptionType: found.header[1], frames: found.frames };
};

/**
 * A V8 frame line, `at name (location)` or `at location`: what `^\s+at\s+(?:async\s+)?(?:(new\s+)?(.+?)\s+\((.+?)\)|(.+?))\s*$`
 * captures, read in one pass. The name ends before the first run of white space that is followed by `(` when the line
 * ends with `)` and something stands between them.
 */
export function jsFrame(line: string): { name?: string; location: string } | undefined {
  const prefix = JS_FRAME_PREFIX.exec(line);
  if (!prefix) return undefined;
  const rest = line.slice(prefix[0].length).trimEnd();
  if (rest === '' || hasLineSeparator(rest)) return undefined;
  if (rest.endsWith(')')) {
    const framed = (at: number) => nameEnd(rest, at);
    // The expression's optional `new\s+` is tried first: the name then runs past `new`, its white space and at least
    // one more character. Failing that, its white space but one is taken as the prefix and the last as the name.
    const run = /^new(\s+)/.exec(rest)?.[1].length;
    if (run !== undefined) {
      const end = framed(3 + run + 1);
      if (end !== undefined) return end;
      if (run >= 3 && rest[3 + run] === '(' && 3 + run + 1 < rest.length - 1) return { name: rest.slice(0, 3 + run - 1), location: rest.slice(3 + run + 1, -1) };
    }
    const end = framed(1);
    if (end !== undefined) return end;
  }
  return { location: rest };
}

/**
 * `name (location)` in `rest` (which ends with `)`), the name ending at the first white space at or after `from` that
 * runs up to a `(` with something between it and the last `)`.
 */
function nameEnd(rest: string, from: number): { name: string; location: string } | undefined {
  for (let i = from; i < rest.length; i++) {
    if (!isSpace(rest[i])) continue;
    let j = i;
    while (j < rest.length && isSpace(rest[j])) j++;
    if (rest[j] === '(' && j + 1 < rest.length - 1) return { name: rest.slice(0, i), location: rest.slice(j + 1, -1) };
    i = j;
  }
  return undefined;
}

// ---- Java (`printStackTrace()`) -------------------------------------------------------------------------------------
// java.lang.IllegalStateException: boom
// 	at com.example.Foo.bar(Foo.java:10)
const QUALIFIED = /^\s*(?:Exception in thread "[^"]*"\s+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?::\s?.*)?$/;
// Java 9 and later may put the class loader and the module before the class (`app//com.x.Y.m(...)` for the
// application loader and no module, `java.base/java.lang.Thread.run(...)`, `loader/mod@1.0/com.x.Y.m(...)`).
const JAVA_FRAME = /^\s+at\s+(?:[\w.$-]*(?:@[\w.-]+)?\/){0,2}([\w$.<>]+)\(([^()]*)\)\s*$/;
const JAVA_SOURCE = /^(?:[\w$-]+\.(?:java|kt|scala|groovy|clj)(?::\d+)?|Native Method|Unknown Source)$/;

const parseJava: Parser = (lines) => {
  const found = headedFrames(
    lines,
    (line) => QUALIFIED.exec(line),
    (line) => {
      const m = JAVA_FRAME.exec(line);
      return m && JAVA_SOURCE.test(m[2]) ? m[1] : undefined;
    },
  );
  return found && { language: 'java', exceptionType: found.header[1], frames: found.frames };
};

// ---- C# (`Exception.ToString()`) ------------------------------------------------------------------------------------
// System.NullReferenceException: Object reference not set to an instance of an object.
//    at MyApp.Program.Main(String[] args) in C:\src\Program.cs:line 12
const CSHARP_FRAME = /^\s+at\s+([\w$.`<>[\]+|,-]+)\(([^()]*)\)(?:\s+in\s+.+:line\s+\d+)?\s*$/;
const CSHARP_NOISE = /^\s*(?:---.*---|--- End of stack trace from previous location.*)\s*$/;

const parseCSharp: Parser = (lines) => {
  const found = headedFrames(
    lines,
    (line) => QUALIFIED.exec(line),
    (line) => {
      const m = CSHARP_FRAME.exec(line);
      return m && !JAVA_SOURCE.test(m[2]) ? m[1] : undefined;
    },
    CSHARP_NOISE,
  );
  return found && { language: 'csharp', exceptionType: found.header[1], frames: found.frames };
};

// ---- Python (`traceback.format_exc()`) ------------------------------------------------------------------------------
// Traceback (most recent call last):
//   File "/app/main.py", line 10, in <module>
//     main()
// ValueError: bad
const PY_FRAME = /^\s+File "(.+)", line \d+, in (.+?)\s*$/;
const PY_EXCEPTION = /^([A-Za-z_][\w.]*)(?::.*)?$/;

const parsePython: Parser = (lines) => {
  const start = lines.findIndex((l) => l.trim() === 'Traceback (most recent call last):');
  if (start < 0) return undefined;
  const frames: string[] = [];
  let j = start + 1;
  while (j < lines.length) {
    const m = PY_FRAME.exec(lines[j]);
    if (!m) break;
    frames.push(m[2] === '<module>' ? m[1] : m[2]);
    j++;
    // The source line under a frame (and caret markers) is indented deeper than the frame.
    while (j < lines.length && /^\s{4,}\S/.test(lines[j]) && !PY_FRAME.test(lines[j])) j++;
  }
  if (frames.length === 0) return undefined;
  const last = lines.slice(j).find((l) => l.trim() !== '');
  const exception = last ? PY_EXCEPTION.exec(last.trim()) : undefined;
  if (!exception) return undefined;
  return { language: 'python', exceptionType: exception[1], frames: frames.reverse() };
};

// ---- Go (`panic` output and `debug.Stack()`) ------------------------------------------------------------------------
// panic: boom
//
// goroutine 1 [running]:
// main.main()
// 	/app/main.go:10 +0x1d
const GO_GOROUTINE = /^goroutine \d+ \[[^\]]+\]:\s*$/;
const GO_FUNC = /^(?:created by )?([^\s(][^\s]*?)(?:\([^()]*\))?(?: in goroutine \d+)?\s*$/;
const GO_FILE = /^\t.+\.(?:go|s):\d+(?: \+0x[0-9a-f]+)?\s*$/;
const GO_RUNTIME_NOISE = /^(?:runtime\/debug\.|runtime\.gopanic$|panic$|runtime\.panic)/;

const parseGo: Parser = (lines) => {
  const start = lines.findIndex((l) => GO_GOROUTINE.test(l));
  if (start < 0) return undefined;
  const frames: string[] = [];
  for (let j = start + 1; j + 1 < lines.length; j += 2) {
    const fn = GO_FUNC.exec(lines[j]);
    if (!fn || !GO_FILE.test(lines[j + 1])) break;
    if (!GO_RUNTIME_NOISE.test(fn[1])) frames.push(fn[1]);
  }
  if (frames.length === 0) return undefined;
  const panic = lines.slice(0, start).some((l) => l.startsWith('panic: '));
  return { language: 'go', exceptionType: panic ? 'panic' : 'goroutine', frames };
};

// ---- Ruby (`Exception#full_message` / backtrace) --------------------------------------------------------------------
// /app/foo.rb:10:in `bar': undefined method `x' for nil:NilClass (NoMethodError)
// 	from /app/foo.rb:5:in `<main>'
// or a header `NoMethodError: message` followed by `from file:line:in 'method'` lines.
// RUBY_FRAME: ^\s*(?:from\s+)?(\S.*?\.rb|\(\w+\)):\d+:in\s+[`'](.+?)'\s*$
// RUBY_FIRST: ^\s*(\S.*?\.rb):\d+:in\s+[`'](.+?)':\s.*\(([A-Z][\w:]*)\)\s*$
// Both are read by rubyFrame/rubyFirst below: a lazy file name before a lazy method name backtracks.
const RUBY_POSITION = /:\d+:in\s+[`']/y;
const RUBY_EVAL = /\(\w+\)/y;
const RUBY_FROM = /from\s+/y;
const RUBY_CLASS = /^[A-Z][\w:]*$/;
const RUBY_HEADER = /^\s*([A-Z][\w:]*)(?::\s.*|\s+\(.*\):?)?\s*$/;

const parseRuby: Parser = (lines) => {
  for (let i = 0; i < lines.length; i++) {
    const first = rubyFirst(lines[i]);
    const header = first ? undefined : RUBY_HEADER.exec(lines[i]);
    if (!first && !header) continue;
    const frames: string[] = first ? [first.method] : [];
    for (let j = i + 1; j < lines.length; j++) {
      const m = rubyFrame(lines[j]);
      if (!m) break;
      frames.push(m.method === '<main>' ? m.file : m.method);
    }
    if (frames.length > 0) return { language: 'ruby', exceptionType: first ? first.exceptionType : header![1], frames };
  }
  return undefined;
};

/**
 * The first `file.rb` of `text` from `start` (a non-space character, then anything, then `.rb`, shortest first) that
 * `:line:in` and a quote follow: the file and where the method name starts. The position parts of two candidates never
 * overlap, so the whole scan is linear.
 */
function rubyPosition(text: string, start: number): { file: string; method: number } | undefined {
  if (start >= text.length || isSpace(text[start])) return undefined;
  for (let at = text.indexOf('.rb', start + 1); at >= 0; at = text.indexOf('.rb', at + 1)) {
    RUBY_POSITION.lastIndex = at + 3;
    if (RUBY_POSITION.test(text)) return { file: text.slice(start, at + 3), method: RUBY_POSITION.lastIndex };
  }
  return undefined;
}

/** A backtrace line, `[from ]file.rb:10:in 'method'` (RUBY_FRAME above). */
export function rubyFrame(line: string): { file: string; method: string } | undefined {
  const text = line.trimEnd();
  if (hasLineSeparator(text) || !text.endsWith("'")) return undefined;
  const start = line.length - line.trimStart().length;
  RUBY_FROM.lastIndex = start;
  const from = RUBY_FROM.exec(text);
  // the expression's order: after `from ` a `.rb` file, then `(eval)`; then the same with `from` read as the file's start
  const starts = from ? [start + from[0].length, start] : [start];
  for (const at of starts) {
    for (const found of [rubyPosition(text, at), rubyEval(text, at)]) {
      // the method: everything between the quote and the line's last `'`, at least one character
      if (found && found.method < text.length - 1) return { file: found.file, method: text.slice(found.method, -1) };
    }
  }
  return undefined;
}

/** `(eval):1:in 'method'`: the file alternative of RUBY_FRAME. */
function rubyEval(text: string, start: number): { file: string; method: number } | undefined {
  RUBY_EVAL.lastIndex = start;
  if (!RUBY_EVAL.test(text)) return undefined;
  const end = RUBY_EVAL.lastIndex;
  RUBY_POSITION.lastIndex = end;
  return RUBY_POSITION.test(text) ? { file: text.slice(start, end), method: RUBY_POSITION.lastIndex } : undefined;
}

/** The first line of `full_message`, `file.rb:10:in 'method': message (Class)` (RUBY_FIRST above). */
export function rubyFirst(line: string): { method: string; exceptionType: string } | undefined {
  const text = line.trimEnd();
  if (hasLineSeparator(text) || !text.endsWith(')')) return undefined;
  const open = text.lastIndexOf('(');
  const exceptionType = text.slice(open + 1, -1);
  if (open < 0 || !RUBY_CLASS.test(exceptionType)) return undefined;
  const found = rubyPosition(text, line.length - line.trimStart().length);
  if (!found) return undefined;
  // the method ends at the first `':` and a space after at least one character; the message runs up to the `(`
  for (let end = text.indexOf("':", found.method + 1); end >= 0 && end + 3 <= open; end = text.indexOf("':", end + 1)) {
    if (isSpace(text[end + 2])) return { method: text.slice(found.method, end), exceptionType };
  }
  return undefined;
}

// ---- PHP (log lines with their prefixes) ----------------------------------------------------------------------------
// PHP Fatal error:  Uncaught Exception: boom in /var/www/index.php:3
// Stack trace:
// #0 /var/www/index.php(10): foo()
// #1 {main}
const PHP_PREFIX = /^\s*PHP (Notice|Parse error|Fatal error|Warning):\s+(.*)$/;
// PHP_FRAME: ^#\d+\s+(?:(.+?)\(\d+\):\s+([^\s(]+)\(.*\)|\[internal function\]:\s+([^\s(]+)\(.*\)|\{main\})\s*$, read by phpFrame
const PHP_FRAME_NUMBER = /^#\d+\s/;
const PHP_CALL = /\(\d+\):\s+([^\s(]+)\(/y;
const PHP_INTERNAL = /^\[internal function\]:\s+([^\s(]+)\(/;
const PHP_LOCATION = /\sin\s+(\S+?)(?:\s+on\s+line\s+\d+|:\d+)\s*$/;

const parsePhp: Parser = (lines) => {
  // the next `Stack trace:` line after each prefix line, found by one forward scan
  let traceStart = -1;
  let tracesFrom = 0;
  for (let i = 0; i < lines.length; i++) {
    const prefix = PHP_PREFIX.exec(lines[i]);
    if (!prefix) continue;
    const uncaught = /^Uncaught\s+([A-Za-z_\\][\w\\]*)/.exec(prefix[2]);
    const exceptionType = uncaught ? uncaught[1] : prefix[1];
    const frames: string[] = [];
    if (traceStart <= i) {
      traceStart = -1;
      for (let k = Math.max(i + 1, tracesFrom); k < lines.length; k++) {
        if (lines[k].trim() === 'Stack trace:') {
          traceStart = k;
          break;
        }
      }
      tracesFrom = traceStart < 0 ? lines.length : traceStart;
    }
    if (traceStart > 0) {
      for (let j = traceStart + 1; j < lines.length; j++) {
        const name = phpFrame(lines[j].trim());
        if (name === undefined) break;
        frames.push(name);
      }
    }
    if (frames.length === 0) {
      const location = PHP_LOCATION.exec(prefix[2]) ?? PHP_LOCATION.exec(lines[i + 1] ?? '');
      if (location) frames.push(location[1]);
    }
    if (frames.length > 0) return { language: 'php', exceptionType, frames };
  }
  return undefined;
};

/** A trimmed PHP trace line, `#0 file(10): fn(args)`, `#1 [internal function]: fn(args)` or `#2 {main}`: the name. */
export function phpFrame(line: string): string | undefined {
  const number = PHP_FRAME_NUMBER.exec(line);
  if (!number || hasLineSeparator(line)) return undefined;
  let start = number[0].length;
  while (start < line.length && isSpace(line[start])) start++;
  // the call must end the line: `fn(` then anything then `)`
  const closes = (end: number) => end < line.length && line.endsWith(')');
  // the file is the shortest text (one character at least) followed by `(line): fn(`
  for (let at = line.indexOf('(', start + 1); at >= 0; at = line.indexOf('(', at + 1)) {
    PHP_CALL.lastIndex = at;
    const call = PHP_CALL.exec(line);
    if (call && closes(PHP_CALL.lastIndex)) return call[1];
  }
  const rest = line.slice(start);
  const internal = PHP_INTERNAL.exec(rest);
  if (internal && closes(start + internal[0].length)) return internal[1];
  if (rest === '{main}') return '{main}';
  // white space after the number may also begin the file
  if (start > number[0].length && line[start] === '(') {
    PHP_CALL.lastIndex = start;
    const call = PHP_CALL.exec(line);
    if (call && closes(PHP_CALL.lastIndex)) return call[1];
  }
  return undefined;
}

/**
 * The first run of frame lines with a header above it, and that header: the nearest line above the run that reads as
 * one. JavaScript, Java and C# print the whole message before the frames, and a message may run over several lines
 * (a Node.js assert diff, Jackson's ` at [Source: ...]`) whose later lines seldom read as a header. Lines matching
 * `skip` inside the run are passed over. One pass over the lines.
 */
function headedFrames(
  lines: string[],
  headerOf: (line: string) => RegExpExecArray | null,
  frameOf: (line: string) => string | undefined,
  skip?: RegExp,
): { header: RegExpExecArray; frames: string[] } | undefined {
  let header: RegExpExecArray | null = null;
  for (let i = 0; i < lines.length; i++) {
    const first = header ? frameOf(lines[i]) : undefined;
    if (header && first !== undefined) {
      const frames = [first];
      for (let j = i + 1; j < lines.length; j++) {
        if (skip?.test(lines[j])) continue;
        const frame = frameOf(lines[j]);
        if (frame === undefined) break;
        frames.push(frame);
      }
      return { header, frames };
    }
    header = headerOf(lines[i]) ?? header;
  }
  return undefined;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
/** U+2028 and U+2029: white space to `\s` but no character to `.`, so the frame expressions never matched across them. */
const hasLineSeparator = (text: string) => /[\u2028\u2029]/.test(text);

const stripPosition = (location: string) => location.replace(/:\d+:\d+$/, '');

const PARSERS: Parser[] = [parsePython, parseGo, parsePhp, parseJava, parseCSharp, parseJavaScript, parseRuby];
