// Recognises the stack-trace formats Error Reporting accepts in `message` and extracts what grouping needs:
// the exception type and the frames, innermost first. Each parser is strict enough that free text is not a trace.

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
const JS_HEADER = /^\s*(?:Uncaught\s+)?([A-Za-z_$][\w$.]*)(?::\s?.*)?$/;
const JS_FRAME = /^\s+at\s+(?:async\s+)?(?:(new\s+)?(.+?)\s+\((.+?)\)|(.+?))\s*$/;
const JS_LOCATION = /^(?:.+):\d+:\d+$|^native$|^<anonymous>$|^index \d+$/;

const parseJavaScript: Parser = (lines) => {
  for (let i = 0; i < lines.length - 1; i++) {
    const header = JS_HEADER.exec(lines[i]);
    if (!header || /^\s+at\s/.test(lines[i])) continue;
    const frames: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const m = JS_FRAME.exec(lines[j]);
      if (!m) break;
      const location = m[3] ?? m[4];
      if (!JS_LOCATION.test(location)) break;
      frames.push(m[2] ? `${m[1] ?? ''}${m[2]}` : stripPosition(location));
    }
    if (frames.length > 0) return { language: 'javascript', exceptionType: header[1], frames };
  }
  return undefined;
};

// ---- Java (`printStackTrace()`) -------------------------------------------------------------------------------------
// java.lang.IllegalStateException: boom
// 	at com.example.Foo.bar(Foo.java:10)
const QUALIFIED = /^\s*(?:Exception in thread "[^"]*"\s+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?::\s?.*)?$/;
const JAVA_FRAME = /^\s+at\s+(?:[\w.$-]+(?:@[\w.-]+)?\/)?([\w$.<>]+)\(([^()]*)\)\s*$/;
const JAVA_SOURCE = /^(?:[\w$-]+\.(?:java|kt|scala|groovy|clj)(?::\d+)?|Native Method|Unknown Source)$/;

const parseJava: Parser = (lines) => {
  for (let i = 0; i < lines.length - 1; i++) {
    const header = QUALIFIED.exec(lines[i]);
    if (!header) continue;
    const frames: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const m = JAVA_FRAME.exec(lines[j]);
      if (!m || !JAVA_SOURCE.test(m[2])) break;
      frames.push(m[1]);
    }
    if (frames.length > 0) return { language: 'java', exceptionType: header[1], frames };
  }
  return undefined;
};

// ---- C# (`Exception.ToString()`) ------------------------------------------------------------------------------------
// System.NullReferenceException: Object reference not set to an instance of an object.
//    at MyApp.Program.Main(String[] args) in C:\src\Program.cs:line 12
const CSHARP_FRAME = /^\s+at\s+([\w$.`<>[\]+|,-]+)\(([^()]*)\)(?:\s+in\s+.+:line\s+\d+)?\s*$/;
const CSHARP_NOISE = /^\s*(?:---.*---|--- End of stack trace from previous location.*)\s*$/;

const parseCSharp: Parser = (lines) => {
  for (let i = 0; i < lines.length - 1; i++) {
    const header = QUALIFIED.exec(lines[i]);
    if (!header) continue;
    const frames: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      if (CSHARP_NOISE.test(lines[j])) continue;
      const m = CSHARP_FRAME.exec(lines[j]);
      if (!m || JAVA_SOURCE.test(m[2])) break;
      frames.push(m[1]);
    }
    if (frames.length > 0) return { language: 'csharp', exceptionType: header[1], frames };
  }
  return undefined;
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
const RUBY_FRAME = /^\s*(?:from\s+)?(\S.*?\.rb|\(\w+\)):\d+:in\s+[`'](.+?)'\s*$/;
const RUBY_FIRST = /^\s*(\S.*?\.rb):\d+:in\s+[`'](.+?)':\s.*\(([A-Z][\w:]*)\)\s*$/;
const RUBY_HEADER = /^\s*([A-Z][\w:]*)(?::\s.*|\s+\(.*\):?)?\s*$/;

const parseRuby: Parser = (lines) => {
  for (let i = 0; i < lines.length; i++) {
    const first = RUBY_FIRST.exec(lines[i]);
    const header = first ? undefined : RUBY_HEADER.exec(lines[i]);
    if (!first && !header) continue;
    const frames: string[] = first ? [first[2]] : [];
    for (let j = i + 1; j < lines.length; j++) {
      const m = RUBY_FRAME.exec(lines[j]);
      if (!m) break;
      frames.push(m[2] === '<main>' ? m[1] : m[2]);
    }
    if (frames.length > 0) return { language: 'ruby', exceptionType: first ? first[3] : header![1], frames };
  }
  return undefined;
};

// ---- PHP (log lines with their prefixes) ----------------------------------------------------------------------------
// PHP Fatal error:  Uncaught Exception: boom in /var/www/index.php:3
// Stack trace:
// #0 /var/www/index.php(10): foo()
// #1 {main}
const PHP_PREFIX = /^\s*PHP (Notice|Parse error|Fatal error|Warning):\s+(.*)$/;
const PHP_FRAME = /^#\d+\s+(?:(.+?)\(\d+\):\s+([^\s(]+)\(.*\)|\[internal function\]:\s+([^\s(]+)\(.*\)|\{main\})\s*$/;
const PHP_LOCATION = /\sin\s+(\S+?)(?:\s+on\s+line\s+\d+|:\d+)\s*$/;

const parsePhp: Parser = (lines) => {
  for (let i = 0; i < lines.length; i++) {
    const prefix = PHP_PREFIX.exec(lines[i]);
    if (!prefix) continue;
    const uncaught = /^Uncaught\s+([A-Za-z_\\][\w\\]*)/.exec(prefix[2]);
    const exceptionType = uncaught ? uncaught[1] : prefix[1];
    const frames: string[] = [];
    const traceStart = lines.findIndex((l, k) => k > i && l.trim() === 'Stack trace:');
    if (traceStart > 0) {
      for (let j = traceStart + 1; j < lines.length; j++) {
        const m = PHP_FRAME.exec(lines[j].trim());
        if (!m) break;
        frames.push(m[2] ?? m[3] ?? '{main}');
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

const stripPosition = (location: string) => location.replace(/:\d+:\d+$/, '');

const PARSERS: Parser[] = [parsePython, parseGo, parsePhp, parseJava, parseCSharp, parseJavaScript, parseRuby];
