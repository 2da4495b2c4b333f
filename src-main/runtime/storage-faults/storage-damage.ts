import type { OperationError } from '../../../src-shared/errors';
import { isDamagedDatabaseError } from '../../storage/database';
import type { EventBus } from '../ports/event-bus';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { Logger } from '../ports/ports';

export interface StorageDamageDeps {
  /** The database file, named in what the person is told. */
  readonly file: string;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly admission: AdmissionGate;
}

/**
 * Damage found in the database after start (a read or write that met `SQLITE_CORRUPT` or
 * `SQLITE_NOTADB`): the check at start sees only what it reads, so a damaged page can surface later.
 * The first time, the person is told which file and how to salvage it, and no new turn starts (what
 * runs would write into a damaged file); every call that meets it answers `storage_damaged`, never an
 * opaque internal failure.
 */
export class StorageDamage {
  private found: OperationError<'storage_damaged'> | null = null;

  constructor(private readonly deps: StorageDamageDeps) {}

  /** What is known to be damaged, or null while nothing is. */
  get current(): OperationError<'storage_damaged'> | null {
    return this.found;
  }

  /** If `error` is database damage: the error to answer with (recorded and announced once); otherwise null. */
  report(error: unknown): OperationError<'storage_damaged'> | null {
    if (!isDamagedDatabaseError(error)) return null;
    if (this.found !== null) return this.found;
    const detail = error instanceof Error ? error.message : String(error);
    this.found = {
      code: 'storage_damaged',
      message:
        `Cairn's database ${this.deps.file} is damaged (${detail}), so Cairn starts no new work. ` +
        'Quit Cairn and start it again with `npm run serve -- --salvage` (the desktop app offers Salvage and start): ' +
        'it moves the damaged file aside, keeping it, and starts with every session and transcript that can still be read.',
    };
    this.deps.logger.error('The database is damaged; no new work starts until it is salvaged', {
      file: this.deps.file,
      detail,
    });
    this.deps.admission.refuseAfterDamage(this.found);
    this.deps.bus.publish({
      kind: 'host.notice',
      code: 'storage_damaged',
      sessionId: null,
      message: this.found.message,
    });
    return this.found;
  }
}
