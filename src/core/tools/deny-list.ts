/** File names read_file refuses by default: environment files, private keys and certificates. */
export const DEFAULT_READ_FILE_DENY = '.env*,.envrc,*.pem,*.key,id_*,!.env.example';

/**
 * A test of file names against globs (`*` any run of characters, `?` one), compared without regard to case;
 * a glob starting with `!` allows what an earlier one denied.
 */
export function createDenyList(globs: readonly string[]): (name: string) => boolean {
  const rules = globs.map((glob) => {
    const allow = glob.startsWith('!');
    const body = allow ? glob.slice(1) : glob;
    const pattern = body
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    return { allow, regex: new RegExp(`^${pattern}$`, 'is') };
  });
  return (name) => {
    let denied = false;
    for (const rule of rules) if (rule.regex.test(name)) denied = !rule.allow;
    return denied;
  };
}
