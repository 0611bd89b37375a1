import { isScalar, LineCounter, parseAllDocuments, type Document } from 'yaml';
import { sortIssues, type ConfigIssue } from './config-error.js';
import { yamlSyntaxProblem } from './yaml-syntax-message.js';

export interface ParsedYaml {
  readonly documents: readonly Document[];
  readonly lines: LineCounter;
  /** Every syntax error and warning, each at its line and column. */
  readonly issues: ConfigIssue[];
}

/** Parses every document of a YAML file, keeping source positions. */
export function parseYaml(file: string, text: string): ParsedYaml {
  const lines = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const issues = documents.flatMap((doc) =>
    [...doc.errors, ...doc.warnings].map((error): ConfigIssue => {
      const problem = yamlSyntaxProblem(error, doc, lines);
      const { line, col } = lines.linePos(problem.offset);
      const flowHint =
        error.code === 'UNEXPECTED_TOKEN' && /[{[][^\n]*\$\{/.test(text.split('\n')[line - 1] ?? '');
      const message = flowHint
        ? 'inside { } or [ ], a value using ${VAR} must be quoted: "${VAR}"'
        : problem.message;
      return { file, line, col, path: '', message };
    }),
  );
  // A trailing `---` or a comment-only document after the first holds nothing: not a second document.
  const used = documents.filter((doc, index) => index === 0 || !isEmptyScalar(doc.contents));
  return { documents: used, lines, issues: firstPerLine(sortIssues(issues)) };
}

// One mistake often derails the parser for the rest of its line; the first error there is the useful one.
function firstPerLine(issues: readonly ConfigIssue[]): ConfigIssue[] {
  return issues.filter((issue, index) => index === 0 || issues[index - 1]?.line !== issue.line);
}

function isEmptyScalar(node: unknown): boolean {
  return node === null || (isScalar(node) && node.value === null && !node.source);
}
