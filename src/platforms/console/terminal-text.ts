import { removeControls } from '../../core/util/control-text.js';

// ESC-introduced sequences: OSC (up to BEL, ST or the line's end), CSI, and any other ESC + one character.
const ESCAPES = /\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[\s\S]?/g;

/**
 * Text that did not come from the bot itself, made safe to print: escape sequences (clipboard writes,
 * window titles, screen clears, hidden links) and control characters are removed; newlines and tabs stay.
 */
export function terminalSafe(text: string): string {
  // Every other control but newline and tab goes too; a carriage return could overwrite what was printed.
  return removeControls(text.replace(/\r\n/g, '\n').replace(ESCAPES, ''), '\n\t');
}
