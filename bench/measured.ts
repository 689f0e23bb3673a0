import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../bundling/bundling';

/**
 * The Markdown files the benchmarks write into docs/measured/, so that the docs link to figures a command
 * wrote rather than retype them: one header (which command, when, on what code and machine), then the
 * tables the command printed. The files are generated (marked so in .gitattributes) and overwritten by each
 * run.
 */

/** Where the measured files go, relative to the project. */
export const MEASURED_DIR = path.join('docs', 'measured');

/** Lays out a table: the benchmarks' `table` for stdout, `markdownTable` for a measured file. */
export type Tabulate = (header: readonly string[], rows: readonly (readonly string[])[]) => string;

/** A Markdown table: the header, the alignment row (the first column left, the others right) and the rows, `|` escaped. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map(line)].join(
    '\n',
  );
}

/** The commit measured, and whether the code had uncommitted changes (Markdown, the docs, aside: it measures nothing). */
export function commitMeasured(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!*.md') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${changed ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

/** The machine a figure was measured on, as a measured file's header gives it: `cpu, cores, Node, platform`. */
export function machineMeasured(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown'}, ${cpus.length} cores, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

export interface MeasuredHeader {
  readonly title: string;
  /** The command that writes the file, as typed. */
  readonly command: string;
  /** The file of bench/ that measures. */
  readonly source: string;
  /** Where the docs say what is measured and why, relative to docs/measured/. */
  readonly about: string;
  readonly timestamp: string;
  readonly commit: string;
  /** The machine, as `cpu, cores, Node, platform`. */
  readonly machine: string;
  /** More lines of the list under the header (seed, load average, run time). */
  readonly more?: readonly string[];
}

/** The top of a measured file: its title, who writes it, and when, on which code and machine. */
export function measuredHeader(h: MeasuredHeader): string {
  return [
    `# ${h.title}`,
    '',
    `Written by \`${h.command}\` (\`${h.source}\`) and overwritten by each run: not edited by hand. What it measures and why: ${h.about}.`,
    '',
    `- Date: ${h.timestamp}`,
    `- Code: commit ${h.commit}`,
    `- Machine: ${h.machine}`,
    ...(h.more ?? []).map((line) => `- ${line}`),
  ].join('\n');
}

/**
 * A report's lines as Markdown: each line its own paragraph (a table is one line of several), so sentences
 * the report prints one under another do not run together.
 */
export function markdownBody(lines: readonly string[]): string {
  return lines.filter((line) => line.trim() !== '').join('\n\n');
}

/** Writes a measured file (`file` relative to the project). */
export async function writeMeasured(file: string, text: string): Promise<void> {
  const absolute = path.join(PROJECT_ROOT, file);
  await mkdir(path.dirname(absolute), { recursive: true });
  await writeFile(absolute, text.endsWith('\n') ? text : `${text}\n`);
}
