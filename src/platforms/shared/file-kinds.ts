/** What the bot does with an attached file: reads it as text, shows it as an image, or names it and skips it. */
export type FileKind = 'text' | 'image' | 'other';

/** Images a vision model takes. */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Extensions read as text: documents, data and common source code. */
const TEXT_EXTENSIONS = new Set(
  (
    'txt text md markdown rst csv tsv json jsonl ndjson yaml yml toml ini cfg conf env log xml html htm css ' +
    'scss less svg js mjs cjs jsx ts mts cts tsx py pyi rb php java kt kts scala go rs c h cc cpp cxx hpp hh ' +
    'cs fs swift m mm dart lua pl pm r jl sh bash zsh fish ps1 bat sql graphql gql proto tf hcl vue svelte ' +
    'ex exs erl hs ml clj edn lisp el vim diff patch gitignore dockerfile makefile gradle properties tex'
  ).split(' '),
);

/** Media types read as text besides `text/*`. */
const TEXT_MEDIA_TYPES = new Set([
  'application/json',
  'application/x-ndjson',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-sh',
  'application/sql',
  'application/graphql',
]);

/** The lower-case extension of `name` (or the whole name for `Dockerfile`, `Makefile`). */
function extension(name: string): string {
  const base = name.toLowerCase().split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot >= 0 ? base.slice(dot + 1) : base;
}

/** The kind of a file from its name and media type, and the media type to name it by. */
export function classifyFile(
  name: string,
  mediaType: string | undefined,
): { kind: FileKind; mediaType: string } {
  const type = mediaType?.split(';')[0]?.trim().toLowerCase() || undefined;
  const ext = extension(name);
  const image = IMAGE_TYPES[ext];
  if (type && Object.values(IMAGE_TYPES).includes(type)) return { kind: 'image', mediaType: type };
  if (image && (!type || type === 'application/octet-stream')) return { kind: 'image', mediaType: image };
  if (type?.startsWith('text/') || (type && TEXT_MEDIA_TYPES.has(type)))
    return { kind: 'text', mediaType: type };
  // Platforms guess types from extensions and get source code wrong (`.ts` as video/mp2t).
  if (TEXT_EXTENSIONS.has(ext)) return { kind: 'text', mediaType: 'text/plain' };
  return { kind: 'other', mediaType: type ?? 'unknown type' };
}
