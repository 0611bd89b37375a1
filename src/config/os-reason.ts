const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
};

/**
 * Why a file could not be read, from the error's code only: an error's message may quote the path or even
 * content, and the files we read hold secrets.
 */
export function osReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'unknown error';
  return `${REASONS[code] ?? 'error'} (${code})`;
}
