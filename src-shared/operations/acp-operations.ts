import { z } from 'zod';
import type { AcpInstallState } from '../acp-install-model';
import { ACP_PRESET_KINDS } from '../connection-model';
import type { AcpAgentIdentity } from '../acp-model';
import { defineOperation } from './define-operation';
import { id } from './fields';

const kind = z.enum(ACP_PRESET_KINDS);

export const acpOperations = {
  /** Where each preset agent's package stands (installed, installing with npm's last lines, failed with its error); kept by `acp.install.changed`. */
  'acp.installs': defineOperation<{ installs: readonly AcpInstallState[] }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  /**
   * Installs a preset agent's pinned package into `<data directory>/agents` with npm, in the
   * background (one npm at a time; a second asks wait their turn). Already installed, or already
   * installing: answers the state as it is and starts nothing.
   */
  'acp.install': defineOperation<{ install: AcpInstallState }>()({
    mode: 'command',
    input: z.strictObject({ kind }),
    errors: [],
  }),
  /** Cancels a preset agent's running (or waiting) install: npm's process group is killed and what it left of the package removed. */
  'acp.install.cancel': defineOperation<{ install: AcpInstallState }>()({
    mode: 'command',
    input: z.strictObject({ kind }),
    errors: [],
  }),
  /**
   * The agent an ACP session runs, as it named itself when it last started for the session (null
   * before it first started, and for other sessions). Read when the session opens; kept by `acp.agent.changed`.
   */
  'acp.agent': defineOperation<{ agent: AcpAgentIdentity | null }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
} as const;
