// Text for an Adaptive Card TextBlock or FactSet, which Teams renders as a subset of Markdown (bold, italic,
// links, lists). Ledger-controlled text gets the Markdown-active ASCII punctuation backslash-escaped (CommonMark
// allows the escape before any ASCII punctuation), and list markers at the start of a line too, so a memo holding
// `[click](https://evil)`, `**urgent**` or `- item` shows as those characters and links, emphasises or lists
// nothing (a link needs its `[`). Parentheses, dots and dashes elsewhere stay as they are, so
// `treasury-hot (0.0.1001)` and `2025-11-13` read normally.
const ACTIVE = /[\\`*_[\]#<>|~]/g;
const LIST_MARKER = /^(\s*)([-+]|\d+\.)(?=\s|$)/gm;

export function escapeTeams(text: string): string {
  return text
    .replace(ACTIVE, (c) => `\\${c}`)
    .replace(LIST_MARKER, (_m, space: string, marker: string) =>
      marker.endsWith('.') ? `${space}${marker.slice(0, -1)}\\.` : `${space}\\${marker}`,
    );
}

/** An http(s) URL for Action.OpenUrl, or undefined (anything else is not linked). */
export function teamsUrl(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
}
