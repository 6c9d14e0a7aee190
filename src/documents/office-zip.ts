import { unzipSync } from 'fflate';
import { DocumentError } from './document-types.js';

/** An encrypted Office file is an OLE compound file, not a zip (MS-OFFCRYPTO): it starts with these bytes. */
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * The parts of an Office file (a zip) that `wanted` picks, unpacked. The sizes the zip declares are summed
 * before anything is unpacked, and each part unpacks into a buffer of its declared size (fflate), so a zip
 * bomb is refused, not inflated.
 */
export function officeParts(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  maxUnpackedBytes: number,
  /** Counts every part against the cap, wanted or not (a check before another library unpacks the file). */
  options: { countAll?: boolean } = {},
): Map<string, Uint8Array> {
  if (COMPOUND_FILE.every((b, i) => bytes[i] === b)) throw new DocumentError('it is password-protected');
  let declared = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(file) {
        if (!options.countAll && !wanted(file.name)) return false;
        declared += file.originalSize;
        if (declared > maxUnpackedBytes) {
          throw new DocumentError(`it unpacks to more than ${Math.round(maxUnpackedBytes / 1_000_000)} MB`);
        }
        return wanted(file.name);
      },
    });
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw new DocumentError('it is damaged or not a valid Office file');
  }
  return new Map(Object.entries(files));
}

/** Refuses an Office file whose parts together declare more than `maxUnpackedBytes`, unpacking nothing. */
export function checkOfficeZip(bytes: Uint8Array, maxUnpackedBytes: number): void {
  officeParts(bytes, () => false, maxUnpackedBytes, { countAll: true });
}

/** A part's XML as text. */
export function xmlOf(part: Uint8Array | undefined): string {
  return part ? new TextDecoder('utf-8').decode(part) : '';
}

/** Sorts part names by the number in them (`slide2.xml` before `slide10.xml`). */
export function byNumber(a: string, b: string): number {
  const n = (s: string) => Number(/(\d+)\.xml$/.exec(s)?.[1] ?? 0);
  return n(a) - n(b);
}
