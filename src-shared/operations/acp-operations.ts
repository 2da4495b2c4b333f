import { z } from 'zod';
import type { AcpAgentIdentity } from '../acp-model';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const acpOperations = {
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
