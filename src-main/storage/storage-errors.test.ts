import { describe, expect, it } from 'vitest';
import { storageFailureOf } from './storage-errors';

describe('storageFailureOf', () => {
  it('tells a full disk from other storage failures, and both from bugs', () => {
    expect(storageFailureOf(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(
      'full',
    );
    expect(storageFailureOf(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe('failed');
    expect(storageFailureOf(Object.assign(new Error('readonly'), { code: 'SQLITE_READONLY' }))).toBe('failed');
    expect(storageFailureOf(new TypeError('x is undefined'))).toBeNull();
    expect(storageFailureOf(Object.assign(new Error('no'), { code: 'ENOENT' }))).toBeNull();
    expect(storageFailureOf('SQLITE_FULL')).toBeNull();
  });
});
