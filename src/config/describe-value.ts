/** How a user's value is quoted back in a message; `hide` gives only its kind (secrets, file contents). */
export function describeValue(value: unknown, hide = false): string {
  if (value === null || value === undefined) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (hide) return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
  if (typeof value === 'string') return quote(value);
  return String(value);
}

/** A string in double quotes, shortened so one message stays one line. */
export function quote(text: string): string {
  const oneLine = text.replace(/\r?\n/g, '\\n');
  return JSON.stringify(oneLine.length > 60 ? `${oneLine.slice(0, 60)}…` : oneLine).replaceAll(
    '\\\\n',
    '\\n',
  );
}
