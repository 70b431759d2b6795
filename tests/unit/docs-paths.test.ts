// Every repository path the README and docs/ cite must exist: a moved or renamed file otherwise
// leaves the front door pointing at nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const TOP = [
  'admin',
  'app',
  'api',
  'bench',
  'content',
  'core',
  'db',
  'docs',
  'integrations',
  'media',
  'models',
  'public',
  'scripts',
  'server',
  'shared',
  'tests',
  '.ci',
];

function markdownFiles(): string[] {
  const docs = fs.readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' });
  return ['README.md', ...docs.filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];
}

/** Paths cited in `code` spans and in Markdown links, relative to the repository root. */
export function citedPaths(markdown: string, file: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(/`([^`\s]+)`/g)) {
    const token = (m[1] ?? '').replace(/[.,;:)]+$/, '');
    const first = token.split('/')[0] ?? '';
    if (!token.includes('/') || !TOP.includes(first)) continue;
    // Templates and globs name a family of files, not one.
    if (/[{}<>*…]|\.\.\./.test(token)) continue;
    found.add(token.replace(/#.*$/, ''));
  }
  for (const m of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (m[1] ?? '').replace(/#.*$/, '');
    if (!target || /^[a-z]+:/i.test(target)) continue;
    found.add(path.relative(root, path.resolve(root, path.dirname(file), target)));
  }
  return [...found];
}

describe('paths cited in the README and docs/', () => {
  const files = markdownFiles();

  it('finds the documents and what they cite', () => {
    expect(files.length).toBeGreaterThan(5);
    expect(citedPaths('see `core/money.ts` and [x](architecture.md)', 'docs/a.md')).toEqual([
      'core/money.ts',
      'docs/architecture.md',
    ]);
    expect(citedPaths('`content/pages/{slug}.md`, `DATA_DIR/outbox/`', 'README.md')).toEqual([]);
  });

  it.each(files)('%s cites only paths that exist', (file) => {
    const missing = citedPaths(fs.readFileSync(path.join(root, file), 'utf8'), file).filter(
      (p) => !fs.existsSync(path.join(root, p)),
    );
    expect(missing).toEqual([]);
  });

  it('keeps the README the front door (under 300 lines)', () => {
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThan(300);
  });
});
