/** The result of `${VAR}` expansion in one string. */
export interface Expansion {
  readonly value: string;
  /** True when at least one reference or escape was replaced. */
  readonly changed: boolean;
  /** One message per reference that could not be expanded. */
  readonly problems: readonly string[];
}

const TOKEN = /\$\$\{|\$\{([^}]*)(\}?)/g;
const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/**
 * Expands `${VAR}` and `${VAR:-default}` (default when unset or empty, like the shell); `$${` is a literal `${`.
 * Defaults are taken literally: references are not nested.
 */
export function expandString(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const problems: string[] = [];
  let changed = false;
  const value = text.replace(TOKEN, (token, inner: string | undefined, close: string | undefined) => {
    changed = true;
    if (token === '$${') return '${';
    const reference = close ? REFERENCE.exec(inner ?? '') : null;
    if (!reference) {
      problems.push(invalidReference(token));
      return token;
    }
    const [, name = '', fallback] = reference;
    // Own keys only: `${constructor}` must not expand to a function of Object.prototype.
    const set = Object.hasOwn(env, name) ? env[name] : undefined;
    if (fallback !== undefined) return set ? set : fallback;
    if (set !== undefined) return set;
    problems.push(
      `environment variable ${name} is not set; set it in the environment, or give a default: \${${name}:-value}`,
    );
    return token;
  });
  return { value, changed, problems };
}

function invalidReference(token: string): string {
  const shown = token.length > 40 ? `${token.slice(0, 40)}…` : token;
  return `"${shown}" is not a valid environment reference; write \${NAME} or \${NAME:-default}, or $\${ for a literal "\${"`;
}
