// JSON text from a user's file, parsed with where it breaks as a line and a
// column (V8 says only "at position 42"): the manifests' loader and the
// locations importer report it the same way.

/** Where JSON text breaks: 1-based line and column, and why, e.g. "Expected ',' or '}' after property value". */
export interface JsonBreak {
  line: number;
  column: number;
  reason: string;
}

/**
 * Returns `{ value }` for valid JSON `text`, else where and why it is not. A
 * byte order mark, as some editors write, is skipped (columns still count it).
 */
export function parseJsonText(text: string): { value: unknown } | JsonBreak {
  const source = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  try {
    return { value: JSON.parse(source) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    const offset = errorOffset(source, message);
    const reason = message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/ after JSON at position \d+.*$/s, ' after the JSON')
      .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '')
      .replace(/^Unexpected end of JSON input$/, 'unexpected end of file');
    return { ...lineColumn(source, offset), reason };
  }
}

/** V8 quotes this many characters either side of an unexpected token. */
const CONTEXT = 10;

/**
 * Returns the offset in `source` where V8's JSON.parse `message` says it
 * broke: "… in JSON at position 42"; or, for "Unexpected token 'x',
 * …"SNIPPET"… is not valid JSON", the token inside the quoted context (the
 * whole text when it is short); else the end.
 */
function errorOffset(source: string, message: string): number {
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  const quoted = /^Unexpected token '[\s\S]+?', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(
    message,
  );
  if (!quoted) return source.length;
  const [, before, snippet] = quoted as unknown as [string, string | undefined, string];
  const start = before ? source.indexOf(snippet) : 0;
  if (before && start >= 0) return start + CONTEXT;
  if (quoted[3]) return Math.max(0, snippet.length - CONTEXT); // the text's start, cut after the token
  return shortTextOffset(source); // the whole (short) text was quoted
}

/**
 * Returns where short JSON `source` breaks: in the shortest prefix that
 * fails other than by ending early ("{", '{"fo'), where that prefix breaks.
 */
function shortTextOffset(source: string): number {
  for (let end = 1; end <= source.length; end++) {
    try {
      JSON.parse(source.slice(0, end));
    } catch (error) {
      const message = (error as Error).message;
      const position = /at position (\d+)/.exec(message);
      if (position) {
        if (Number(position[1]) < end) return Number(position[1]);
      } else if (!/^Unexpected end/.test(message)) return end - 1;
    }
  }
  return source.length;
}

/** Returns the 1-based line and column of character `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
