import { describe, expect, it } from 'vitest';
import { csvCell } from './analytics';

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    // A spreadsheet drops a leading tab or carriage return and reads the formula behind it.
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
    ['Tides, "spring"', '"Tides, ""spring"""'],
    ['line\rbreak', '"line\rbreak"'],
    ['Plain title', 'Plain title'],
    [42, '42'],
    [null, ''],
  ])('%j → %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});
