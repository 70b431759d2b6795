import { useEffect, useRef } from 'react';
import { backspace, enterDigits, type CodeCells } from '~/core/code-boxes';

/**
 * SPEC §5 code boxes: six one-character inputs. A digit moves on, Backspace in an empty box
 * goes back, a paste of up to six digits fills the boxes (the phone's one-time-code autofill
 * lands in the first box and is spread the same way).
 */
export function CodeBoxes({
  cells,
  onChange,
  invalid,
  describedBy,
  autoFocus,
  label = 'Код из СМС',
}: {
  cells: CodeCells;
  onChange: (cells: string[]) => void;
  invalid: boolean;
  describedBy?: string | undefined;
  autoFocus?: boolean;
  /** The group's accessible name: where the code came from. */
  label?: string;
}) {
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const focusBox = (i: number) => boxes.current[i]?.focus();
  useEffect(() => {
    if (autoFocus) boxes.current[0]?.focus();
  }, [autoFocus]);

  return (
    <div className="code-boxes" role="group" aria-label={label} aria-describedby={describedBy}>
      {cells.map((cell, i) => (
        <input
          key={i}
          ref={(el) => {
            boxes.current[i] = el;
          }}
          className="code-boxes__cell"
          value={cell}
          inputMode="numeric"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          aria-label={`Цифра ${i + 1} из ${cells.length}`}
          aria-invalid={invalid || undefined}
          onChange={(e) => {
            // The box held one digit: what was typed is what is new beside it.
            const typed = e.currentTarget.value.replace(cell, '') || e.currentTarget.value;
            const edit = enterDigits(cells, i, typed);
            onChange(edit.cells);
            focusBox(edit.focus);
          }}
          onPaste={(e) => {
            e.preventDefault();
            const edit = enterDigits(cells, i, e.clipboardData.getData('text'));
            onChange(edit.cells);
            focusBox(edit.focus);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Backspace') {
              e.preventDefault();
              const edit = backspace(cells, i);
              onChange(edit.cells);
              focusBox(edit.focus);
            } else if (e.key === 'ArrowLeft' && i > 0) {
              e.preventDefault();
              focusBox(i - 1);
            } else if (e.key === 'ArrowRight' && i < cells.length - 1) {
              e.preventDefault();
              focusBox(i + 1);
            }
          }}
          onFocus={(e) => e.currentTarget.select()}
        />
      ))}
    </div>
  );
}
