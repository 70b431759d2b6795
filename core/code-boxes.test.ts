import { describe, expect, it } from 'vitest';
import { backspace, codeOf, emptyCells, enterDigits } from './code-boxes';
import { cleanCode, isCodeShaped, normalizeEmail, resendSecondsLeft, resendText } from './auth';

describe('code boxes', () => {
  it('takes one digit a box and moves on; ignores letters', () => {
    let edit = enterDigits(emptyCells(), 0, '4');
    expect(edit).toEqual({ cells: ['4', '', '', '', '', ''], focus: 1 });
    edit = enterDigits(edit.cells, 1, 'a');
    expect(edit).toEqual({ cells: ['4', '', '', '', '', ''], focus: 1 });
    edit = enterDigits(edit.cells, 1, '2');
    expect(codeOf(edit.cells)).toBe('42');
  });

  it('stays on the last box when it is filled', () => {
    const cells = ['1', '2', '3', '4', '5', ''];
    expect(enterDigits(cells, 5, '6')).toEqual({ cells: ['1', '2', '3', '4', '5', '6'], focus: 5 });
  });

  it('fills every box from a paste of a whole code, wherever it lands, and from the box for a part', () => {
    expect(enterDigits(emptyCells(), 3, '12 34 56')).toEqual({ cells: ['1', '2', '3', '4', '5', '6'], focus: 5 });
    expect(enterDigits(emptyCells(), 2, '789')).toEqual({ cells: ['', '', '7', '8', '9', ''], focus: 5 });
    expect(enterDigits(emptyCells(), 0, '1234567890').cells.join('')).toBe('123456');
  });

  it('Backspace clears the box, and in an empty box goes back and clears that one', () => {
    const cells = ['1', '2', '3', '', '', ''];
    expect(backspace(cells, 2)).toEqual({ cells: ['1', '2', '', '', '', ''], focus: 2 });
    expect(backspace(cells, 3)).toEqual({ cells: ['1', '2', '', '', '', ''], focus: 2 });
    expect(backspace(emptyCells(), 0)).toEqual({ cells: emptyCells(), focus: 0 });
  });
});

describe('login rules', () => {
  it('cleans and checks codes', () => {
    expect(cleanCode(' 12-34 56 7')).toBe('123456');
    expect(isCodeShaped('1234')).toBe(true);
    expect(isCodeShaped('123')).toBe(false);
    expect(isCodeShaped('12345a')).toBe(false);
  });

  it('counts the resend wait down from 59 s', () => {
    expect(resendSecondsLeft(0, 0)).toBe(59);
    expect(resendText(resendSecondsLeft(0, 10_050))).toBe('Получить новый код через: 49 сек.');
    expect(resendSecondsLeft(0, 60_000)).toBe(0);
  });

  it('normalises e-mail addresses', () => {
    expect(normalizeEmail('  Anna@Example.RU ')).toBe('anna@example.ru');
    expect(normalizeEmail('anna@example')).toBeNull();
    expect(normalizeEmail('a b@example.ru')).toBeNull();
    expect(normalizeEmail(`${'a'.repeat(250)}@example.ru`)).toBeNull();
  });
});
