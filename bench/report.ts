import type { GoalGroup } from './scenarios.js';

// Summaries of the rounds: medians with their spread (min–max over rounds), and each goal
// with PASS or FAIL against its target.

export const median = (values: number[]) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const spread = (values: number[], digits: number, unit = '') => {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return 'n/a';
  return `${Math.min(...finite).toFixed(digits)}–${Math.max(...finite).toFixed(digits)}${unit}`;
};

/** Median and spread: `0.231 (0.219–0.240)`. */
export const summary = (values: number[], digits: number, unit = '') =>
  `${median(values).toFixed(digits)}${unit} (${spread(values, digits, unit)})`;

const pad = (text: string, width: number) => (text.length >= width ? text : text + ' '.repeat(width - text.length));
const padLeft = (text: string, width: number) => (text.length >= width ? text : ' '.repeat(width - text.length) + text);

/** A plain text table; the first column left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? pad(cell, widths[column]!) : padLeft(cell, widths[column]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

export interface Goal {
  /** The set of goals it belongs to (the API bench prints its goals by group). */
  group?: GoalGroup;
  label: string;
  target: string;
  measured: string;
  pass: boolean;
}

export const goalLine = (goal: Goal) => `${goal.pass ? 'PASS' : 'FAIL'}  ${goal.label}: ${goal.measured} (target ${goal.target})`;

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
