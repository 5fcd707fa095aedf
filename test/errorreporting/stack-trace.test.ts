import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsFrame, parseStackTrace, phpFrame, rubyFirst, rubyFrame, type TraceLanguage } from '../../src/services/errorreporting/domain/stack-trace.ts';

const EXAMPLES: Array<{ language: TraceLanguage; type: string; top: string; text: string }> = [
  {
    language: 'javascript',
    type: 'TypeError',
    top: 'Object.<anonymous>',
    text: "TypeError: Cannot read properties of undefined (reading 'x')\n    at Object.<anonymous> (/app/index.js:10:5)\n    at Module._compile (node:internal/modules/cjs/loader:1105:14)\n    at /app/boot.js:3:1\n    at async Promise.all (index 0)",
  },
  {
    language: 'javascript',
    type: 'TypeError',
    top: 'Object.openSync',
    text: 'TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string. Received undefined\n    at Object.openSync (node:fs:571:10)\n    at Object.readFileSync (node:fs:452:35)',
  },
  {
    language: 'javascript',
    type: 'AssertionError',
    top: 'check',
    text: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n1 !== 2\n\n    at check (/app/check.js:4:10)\n    at main (/app/main.js:2:1)',
  },
  {
    language: 'python',
    type: 'ValueError',
    top: 'parse',
    text: 'Traceback (most recent call last):\n  File "/app/main.py", line 10, in <module>\n    main()\n  File "/app/main.py", line 5, in parse\n    raise ValueError("bad")\n           ^^^^^^^^^^^^^^^^\nValueError: bad',
  },
  {
    language: 'java',
    type: 'java.lang.IllegalStateException',
    top: 'com.example.Foo.bar',
    text: 'java.lang.IllegalStateException: boom\n\tat com.example.Foo.bar(Foo.java:10)\n\tat java.base/java.lang.Thread.run(Thread.java:833)\n\tat sun.misc.Unsafe.park(Native Method)\nCaused by: java.io.IOException: x\n\t... 3 more',
  },
  {
    language: 'java',
    type: 'com.fasterxml.jackson.databind.exc.MismatchedInputException',
    top: 'com.fasterxml.jackson.databind.DeserializationContext.reportInputMismatch',
    text: 'com.fasterxml.jackson.databind.exc.MismatchedInputException: Cannot deserialize value of type `int`\n at [Source: (String)"{}"; line: 1, column: 1]\n\tat com.fasterxml.jackson.databind.DeserializationContext.reportInputMismatch(DeserializationContext.java:1741)',
  },
  {
    language: 'csharp',
    type: 'System.NullReferenceException',
    top: 'MyApp.Program.Run',
    text: 'System.NullReferenceException: Object reference not set to an instance of an object.\n   at MyApp.Program.Run(String[] args) in C:\\src\\Program.cs:line 12\n   at MyApp.Program.Main()',
  },
  {
    language: 'go',
    type: 'panic',
    top: 'main.(*Server).handle',
    text: 'panic: runtime error: index out of range [3] with length 2\n\ngoroutine 1 [running]:\nmain.(*Server).handle(0xc000010000)\n\t/app/main.go:10 +0x1d\nmain.main()\n\t/app/main.go:5 +0x20\nexit status 2',
  },
  {
    language: 'go',
    type: 'goroutine',
    top: 'main.work',
    text: 'goroutine 7 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:24 +0x5e\nmain.work()\n\t/tmp/main.go:8 +0x20\ncreated by main.main in goroutine 1\n\t/tmp/main.go:12 +0x25',
  },
  {
    language: 'ruby',
    type: 'NoMethodError',
    top: 'show',
    text: "/app/controllers/users.rb:10:in `show': undefined method `name' for nil:NilClass (NoMethodError)\n\tfrom /app/router.rb:5:in `dispatch'\n\tfrom /app/main.rb:1:in `<main>'",
  },
  {
    language: 'ruby',
    type: 'RuntimeError',
    top: 'load',
    text: "RuntimeError: config missing\n\tfrom /app/config.rb:3:in 'load'\n\tfrom /app/main.rb:1:in '<main>'",
  },
  {
    language: 'php',
    type: 'Exception',
    top: 'render',
    text: "PHP Fatal error:  Uncaught Exception: boom in /var/www/index.php:3\nStack trace:\n#0 /var/www/index.php(10): render('home')\n#1 {main}\n  thrown in /var/www/index.php on line 3",
  },
  {
    language: 'php',
    type: 'Warning',
    top: '/var/www/lib.php',
    text: 'PHP Warning:  Division by zero in /var/www/lib.php on line 12',
  },
];

describe('stack-trace parsers: examples', () => {
  for (const ex of EXAMPLES) {
    it(`recognises ${ex.language} (${ex.type})`, () => {
      const parsed = parseStackTrace(ex.text);
      assert.ok(parsed, ex.text);
      assert.equal(parsed.language, ex.language);
      assert.equal(parsed.exceptionType, ex.type);
      assert.equal(parsed.frames[0], ex.top);
    });
  }

  it('reads Java frames that name their class loader and module', () => {
    const text = 'java.lang.IllegalStateException: boom\n\tat app//com.example.Foo.bar(Foo.java:10)\n\tat com.foo.loader/foo@9.0/com.foo.Main.run(Main.java:101)\n\tat java.base/java.lang.Thread.run(Thread.java:833)';
    assert.deepEqual(parseStackTrace(text)?.frames, ['com.example.Foo.bar', 'com.foo.Main.run', 'java.lang.Thread.run']);
  });

  it('finds a trace after leading log text', () => {
    const parsed = parseStackTrace('request failed, details follow\n' + EXAMPLES[0].text);
    assert.equal(parsed?.language, 'javascript');
  });

  it('rejects text that only looks like a trace', () => {
    for (const text of [
      'Something broke',
      'TypeError: boom',
      'Error: x\n    at nothing useful',
      'Traceback (most recent call last):\nno frames here',
      'goroutine 1 [running]:\nmain.main()',
      'PHP Fatal error: something happened',
      'Warning: Division by zero in /var/www/lib.php on line 12',
      'java.lang.Exception: boom\n\tat com.example.Foo.bar',
    ]) {
      assert.equal(parseStackTrace(text), undefined, text);
    }
  });
});

// ---- generated traces ---------------------------------------------------------------------------------------------

const ident = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,11}$/);
const typeName = fc.stringMatching(/^[A-Z][a-zA-Z0-9]{0,11}(?:Error|Exception)$/);
const pkg = fc.array(ident, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.'));
const path = fc.array(ident, { minLength: 1, maxLength: 4 }).map((parts) => '/' + parts.join('/'));
const line = fc.integer({ min: 1, max: 99999 });
const message = fc.stringMatching(/^[a-zA-Z0-9 ,.'-]{0,40}$/);
const frames = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 1, maxLength: 6 });

const generators: Record<TraceLanguage, fc.Arbitrary<{ text: string; type: string; top: string }>> = {
  javascript: fc.tuple(typeName, message, frames(fc.tuple(ident, path, line, line))).map(([type, msg, fs]) => ({
    type,
    top: fs[0][0],
    text: `${type}: ${msg}\n` + fs.map(([fn, p, l, c]) => `    at ${fn} (${p}.js:${l}:${c})`).join('\n'),
  })),
  python: fc.tuple(typeName, message, frames(fc.tuple(ident, path, line))).map(([type, msg, fs]) => ({
    type,
    top: fs[fs.length - 1][0],
    text: 'Traceback (most recent call last):\n' + fs.map(([fn, p, l]) => `  File "${p}.py", line ${l}, in ${fn}\n    ${fn}()`).join('\n') + `\n${type}: ${msg}`,
  })),
  java: fc.tuple(pkg, typeName, message, frames(fc.tuple(pkg, ident, ident, line))).map(([p, type, msg, fs]) => ({
    type: `${p}.${type}`,
    top: `${fs[0][0]}.${fs[0][1]}`,
    text: `${p}.${type}: ${msg}\n` + fs.map(([cls, fn, file, l]) => `\tat ${cls}.${fn}(${file}.java:${l})`).join('\n'),
  })),
  csharp: fc.tuple(pkg, typeName, message, frames(fc.tuple(pkg, ident, path, line))).map(([p, type, msg, fs]) => ({
    type: `${p}.${type}`,
    top: `${fs[0][0]}.${fs[0][1]}`,
    text: `${p}.${type}: ${msg}\n` + fs.map(([cls, fn, file, l]) => `   at ${cls}.${fn}(String arg) in ${file}.cs:line ${l}`).join('\n'),
  })),
  go: fc.tuple(message, fc.integer({ min: 1, max: 999 }), frames(fc.tuple(ident, path, line))).map(([msg, g, fs]) => ({
    type: 'panic',
    top: `main.${fs[0][0]}`,
    text: `panic: ${msg}\n\ngoroutine ${g} [running]:\n` + fs.map(([fn, p, l]) => `main.${fn}(0x1)\n\t${p}.go:${l} +0x1d`).join('\n'),
  })),
  ruby: fc.tuple(typeName, message, frames(fc.tuple(ident, path, line))).map(([type, msg, fs]) => ({
    type,
    top: fs[0][0],
    text: `${fs[0][1]}.rb:${fs[0][2]}:in \`${fs[0][0]}': ${msg} (${type})\n` + fs.slice(1).map(([fn, p, l]) => `\tfrom ${p}.rb:${l}:in \`${fn}'`).join('\n'),
  })),
  php: fc.tuple(typeName, message, frames(fc.tuple(ident, path, line))).map(([type, msg, fs]) => ({
    type,
    top: fs[0][0],
    text: `PHP Fatal error:  Uncaught ${type}: ${msg} in ${fs[0][1]}.php:${fs[0][2]}\nStack trace:\n` + fs.map(([fn, p, l], i) => `#${i} ${p}.php(${l}): ${fn}()`).join('\n') + `\n#${fs.length} {main}`,
  })),
};

describe('stack-trace parsers: properties', () => {
  for (const [language, gen] of Object.entries(generators)) {
    it(`recognises every generated ${language} trace with its type and top frame`, () => {
      fc.assert(
        fc.property(gen, ({ text, type, top }) => {
          const parsed = parseStackTrace(text);
          assert.ok(parsed, text);
          assert.equal(parsed.language, language);
          assert.equal(parsed.exceptionType, type);
          assert.equal(parsed.frames[0], top);
        }),
        { numRuns: 200 },
      );
    });
  }

  it('does not recognise random text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.lorem({ maxCount: 30 }), fc.array(fc.lorem({ maxCount: 8 }), { maxLength: 8 }).map((l) => l.join('\n'))), (text) => {
        assert.equal(parseStackTrace(text), undefined, text);
      }),
      { numRuns: 500 },
    );
  });

  it('does not recognise a trace with its frames taken away', () => {
    // PHP is left out: its header line names the file and line, which is a location on its own.
    const withoutPhp = Object.entries(generators).filter(([l]) => l !== 'php').map(([, g]) => g);
    fc.assert(
      fc.property(fc.constantFrom(...withoutPhp).chain((g) => g), ({ text }) => {
        const header = text.split('\n').filter((l) => !/^\s|^#\d|^Stack trace:|^Traceback|^goroutine|^main\.|\.rb:\d+:in/.test(l));
        assert.equal(parseStackTrace(header.join('\n')), undefined, header.join('\n'));
      }),
      { numRuns: 200 },
    );
  });
});

// The frame lines the parsers once read with backtracking expressions: each took seconds on a line of a few hundred
// kilobytes (and a message of 1 MiB is accepted). The scanners that replaced them must read every line as the
// expressions did, and a megabyte of the worst lines must still be parsed.
const JS_FRAME = /^\s+at\s+(?:async\s+)?(?:(new\s+)?(.+?)\s+\((.+?)\)|(.+?))\s*$/;
const JS_LOCATION = /^(?:.+):\d+:\d+$|^native$|^<anonymous>$|^index \d+$/;
const RUBY_FRAME = /^\s*(?:from\s+)?(\S.*?\.rb|\(\w+\)):\d+:in\s+[`'](.+?)'\s*$/;
const RUBY_FIRST = /^\s*(\S.*?\.rb):\d+:in\s+[`'](.+?)':\s.*\(([A-Z][\w:]*)\)\s*$/;
const PHP_FRAME = /^#\d+\s+(?:(.+?)\(\d+\):\s+([^\s(]+)\(.*\)|\[internal function\]:\s+([^\s(]+)\(.*\)|\{main\})\s*$/;

const lineOf = (prefixes: string[], tokens: string[]) =>
  fc.tuple(fc.constantFrom(...prefixes), fc.array(fc.constantFrom(...tokens), { maxLength: 14 })).map(([p, t]) => p + t.join(''));

describe('stack-trace parsers: frame lines read in linear time', () => {
  it('reads V8 frame lines as the frame expression does', () => {
    const tokens = [' ', '  ', '\t', 'at', 'async ', 'new ', '(', ')', '((', 'a', 'x.js', ':1', ':22', 'native', '<anonymous>', 'index 0', '.'];
    fc.assert(
      fc.property(lineOf(['    at ', ' at', '\tat async ', 'at ', '  at new ', ''], tokens), (line) => {
        const m = JS_FRAME.exec(line);
        const expected = m && JS_LOCATION.test(m[3] ?? m[4]) ? { name: m[2] ? `${m[1] ?? ''}${m[2]}` : undefined, location: m[3] ?? m[4] } : undefined;
        const got = jsFrame(line);
        assert.deepEqual(got && JS_LOCATION.test(got.location) ? { name: got.name, location: got.location } : undefined, expected, JSON.stringify(line));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads Ruby backtrace lines and first lines as the expressions do', () => {
    const tokens = [' ', '  ', 'from ', 'a', '.rb', '.r', ':1', ':in ', ':in', '`', "'", "':", ': ', ':', '(', ')', '(eval)', 'E', 'Err::X', '<main>', 'x'];
    fc.assert(
      fc.property(lineOf(['', '  ', 'from ', '\tfrom /a.rb', 'a.rb:1:in `', '/app/x.rb:3:in '], tokens), (line) => {
        const frame = RUBY_FRAME.exec(line);
        assert.deepEqual(rubyFrame(line), frame ? { file: frame[1], method: frame[2] } : undefined, JSON.stringify(line));
        const first = RUBY_FIRST.exec(line);
        assert.deepEqual(rubyFirst(line), first ? { method: first[2], exceptionType: first[3] } : undefined, JSON.stringify(line));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads PHP trace lines as the frame expression does', () => {
    const tokens = [' ', '  ', 'a', '/x.php', '(', ')', '1', '(1)', '): ', ':', ': ', '[internal function]', '{main}', 'f', 'f(', '#1'];
    fc.assert(
      fc.property(lineOf(['#0 ', '#12  ', '#3', '#0 /a.php(1): ', '#1 [internal function]: ', ''], tokens), (raw) => {
        const line = raw.trim();
        const m = PHP_FRAME.exec(line);
        assert.equal(phpFrame(line), m ? (m[2] ?? m[3] ?? '{main}') : undefined, JSON.stringify(line));
      }),
      { numRuns: 3000 },
    );
  });

  it('parses a megabyte of the lines that made the expressions backtrack', () => {
    const js = 'TypeError: x\n    at a' + ' ('.repeat(250_000) + 'x';
    assert.equal(parseStackTrace(js), undefined);
    const jsLong = 'TypeError: x\n    at a' + ' ('.repeat(250_000) + ' (/app/x.js:1:2)';
    // the name ends at the first ` (`, as the expression's lazy name did
    assert.deepEqual(parseStackTrace(jsLong)?.frames, ['a']);
    const rubyFirstLine = 'a.rb:1:in `'.repeat(90_000);
    assert.equal(parseStackTrace(rubyFirstLine), undefined);
    const rubyFrames = 'NoMethodError: x\nfrom ' + '.rb:1:in `'.repeat(100_000);
    assert.equal(parseStackTrace(rubyFrames), undefined);
    const phpFrames = 'PHP Fatal error: x\nStack trace:\n#0 ' + 'a(1): b('.repeat(125_000);
    assert.deepEqual(parseStackTrace(phpFrames), undefined);
  });

  it('looks for a PHP trace once, not once per logged line', () => {
    // 70,000 prefix lines, none with a location: each once looked through every later line for `Stack trace:`
    const notices = 'PHP Notice: x\n'.repeat(70_000);
    assert.equal(parseStackTrace(notices), undefined);
    const last = notices + 'PHP Fatal error:  Uncaught Exception: boom in /var/www/index.php:3\nStack trace:\n#0 /var/www/index.php(10): foo()\n#1 {main}';
    // every prefix line reads the trace that follows it: the first one wins
    assert.deepEqual(parseStackTrace(last), { language: 'php', exceptionType: 'Notice', frames: ['foo', '{main}'] });
  });
});
