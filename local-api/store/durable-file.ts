import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates a file that, after a power cut, either exists with all of its bytes or does not exist: written and
 * fsynced under a temporary name, then linked to its name (which fails, like `wx`, if the name is taken) and its
 * folder fsynced. A plain write can leave an empty file behind, and an empty device key would stop the service.
 */
export function createFileDurably(file: string, data: string | Buffer, mode = 0o600): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', mode);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
  } finally {
    unlinkSync(temp);
  }
  const folder = openSync(dirname(file), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}
