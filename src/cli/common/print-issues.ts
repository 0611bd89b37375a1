import type { Writable } from 'node:stream';
import { formatIssue, type ConfigIssue } from '../../config/config-error.js';

/** Every issue on its own line, `file:line:col path: message`, then a count. */
export function printIssues(out: Writable, issues: readonly ConfigIssue[]): void {
  for (const issue of issues) out.write(`${formatIssue(issue)}\n`);
  out.write(`${issues.length} error${issues.length === 1 ? '' : 's'}\n`);
}
