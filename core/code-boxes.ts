import { LOGIN_CODE_LENGTH } from './auth';

// SPEC §5 code boxes: six boxes of one character each; typing advances, Backspace in an empty
// box goes back, a paste of up to six digits fills the boxes from the one pasted into. The
// boxes are plain state: these functions say what a key or a paste does and where focus goes.

export type CodeCells = readonly string[];

export interface CodeEdit {
  cells: string[];
  /** The box to focus next. */
  focus: number;
}

export function emptyCells(): string[] {
  return Array.from({ length: LOGIN_CODE_LENGTH }, () => '');
}

/** What typing (one key) or pasting (several characters) into box `index` does; non-digits are ignored. */
export function enterDigits(cells: CodeCells, index: number, text: string): CodeEdit {
  const next = [...cells];
  const digits = text.replace(/\D/g, '');
  if (digits.length === 0) return { cells: next, focus: index };
  // A paste of a whole code fills from the first box, wherever it was pasted.
  let at = digits.length >= LOGIN_CODE_LENGTH ? 0 : index;
  for (const d of digits.slice(0, LOGIN_CODE_LENGTH)) {
    if (at >= LOGIN_CODE_LENGTH) break;
    next[at] = d;
    at += 1;
  }
  return { cells: next, focus: Math.min(at, LOGIN_CODE_LENGTH - 1) };
}

/** Backspace in box `index`: clears it, or when it is already empty, clears the box before and goes there. */
export function backspace(cells: CodeCells, index: number): CodeEdit {
  const next = [...cells];
  if (next[index]) {
    next[index] = '';
    return { cells: next, focus: index };
  }
  const back = Math.max(0, index - 1);
  next[back] = '';
  return { cells: next, focus: back };
}

/** SPEC §5: the code is the boxes joined. */
export function codeOf(cells: CodeCells): string {
  return cells.join('');
}
