import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';

/** A JSON text parsed with the positions of its values, so problems can name their line. */
export interface JsonSource {
  /** The root node; undefined when the text has no value at all. */
  root: Node | undefined;
  /** Syntax errors, each as `line:column: what is wrong`. */
  syntaxErrors: string[];
  /** `line:column` of the value at `path`, or of the nearest enclosing value that exists. */
  where(path: readonly PropertyKey[]): string;
  /** `line:column` of an offset in the text. */
  at(offset: number): string;
}

const SYNTAX: Partial<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected a colon after the property name',
  CommaExpected: 'expected a comma between entries',
  CloseBraceExpected: 'expected } to close the object',
  CloseBracketExpected: 'expected ] to close the list',
  EndOfFileExpected: 'unexpected text after the end',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidEscapeCharacter: 'invalid escape sequence in a string',
  InvalidCharacter: 'invalid character in a string (control characters must be escaped)',
};

/** Parses JSON (comments and trailing commas allowed, as editors write them) keeping positions. */
export function parseJsonSource(text: string): JsonSource {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const at = (offset: number) => {
    let line = lineStarts.length - 1;
    while (line > 0 && (lineStarts[line] ?? 0) > offset) line--;
    return `${line + 1}:${offset - (lineStarts[line] ?? 0) + 1}`;
  };
  if (text.trim() === '')
    return { root: undefined, syntaxErrors: [`${at(0)}: the file is empty`], at, where: () => at(0) };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const syntaxErrors = errors.map((e) => {
    const code = printParseErrorCode(e.error);
    return `${at(e.offset)}: ${SYNTAX[code] ?? code}`;
  });
  return {
    root,
    syntaxErrors,
    at,
    where(path) {
      for (let n = path.length; root && n >= 0; n--) {
        const node = findNodeAtLocation(root, path.slice(0, n) as (string | number)[]);
        if (node) return at(node.offset);
      }
      return at(0);
    },
  };
}
