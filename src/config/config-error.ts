/** One problem in a config or rule file, located where the user can fix it. */
export interface ConfigIssue {
  readonly file: string;
  /** 1-based; 0 when the problem concerns the whole file (e.g. it cannot be read). */
  readonly line: number;
  /** 1-based; 0 together with line 0. */
  readonly col: number;
  /** Dotted key path, array indexes as numbers (`accounts.3.id`); empty for the file or document itself. */
  readonly path: string;
  readonly message: string;
}

/** `config.yaml:14:5 notifiers.ops.webhook_url: message` — the one format every config error is shown in. */
export function formatIssue(issue: ConfigIssue): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.col}` : `${issue.file}:`;
  return issue.path ? `${where} ${issue.path}: ${issue.message}` : `${where} ${issue.message}`;
}

/** Position order (line, then column); issues at the same place keep their order. */
export function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  return [...issues].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
}

/** Thrown by callers that cannot continue with an invalid file; the message lists every issue, one per line. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
