import { z } from 'zod';
import type { AcpInstallState } from '../acp-install-model';
import type { AcpRegistryList } from '../acp-registry-model';
import type { AcpAuthMethods, AcpLoginState } from '../acp-login-model';
import { ACP_PRESET_KINDS } from '../connection-model';
import type { AcpAgentIdentity, AcpSessionListing, AcpSessionOffers } from '../acp-model';
import type { SessionRecord } from '../model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

/** A preset agent, or an npm agent of the ACP registry by its id (`registry:qwen-code`). */
const kind = z.union([
  z.enum(ACP_PRESET_KINDS),
  z.custom<`registry:${string}`>(
    (value) => typeof value === 'string' && /^registry:[a-z][a-z0-9-]{0,99}$/.test(value),
    'a registry agent: registry:<id>',
  ),
]);

export const acpOperations = {
  /**
   * Where each preset agent's package stands, then each npm agent's of the ACP registry (installed,
   * installing with npm's last lines, failed with its error); kept by `acp.install.changed`.
   */
  'acp.installs': defineOperation<{ installs: readonly AcpInstallState[] }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  /**
   * Installs a preset agent's pinned package, or a registry npm agent's `package@version`, into
   * `<data directory>/agents` with npm, in the background (one npm at a time; a second asks wait their
   * turn). Already installed, or already installing: answers the state as it is and starts nothing. A
   * registry id the list does not hold as an npm agent: `invalid_input`.
   */
  'acp.install': defineOperation<{ install: AcpInstallState }>()({
    mode: 'command',
    input: z.strictObject({ kind }),
    errors: ['invalid_input'],
  }),
  /**
   * The ACP registry's agents for Add connection: the last good copy fetched (kept in the data
   * directory), else the snapshot shipped with Cairn, saying which and as of when. Answers at once;
   * when the list is a day old, a refresh starts in the background (seen at the next ask).
   */
  'acp.registry.list': defineOperation<{ registry: AcpRegistryList }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  /**
   * Fetches the ACP registry now (a few seconds at most): the new list, or the previous one with why
   * the refresh failed (`refreshError`).
   */
  'acp.registry.refresh': defineOperation<{ registry: AcpRegistryList }>()({
    mode: 'command',
    input: z.strictObject({}),
    errors: [],
  }),
  /** Cancels a preset agent's running (or waiting) install: npm's process group is killed and what it left of the package removed. */
  'acp.install.cancel': defineOperation<{ install: AcpInstallState }>()({
    mode: 'command',
    input: z.strictObject({ kind }),
    errors: ['invalid_input'],
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
  /**
   * What an ACP session's agent offers, as it last said (kept in the session's record, so known after
   * a restart before the agent runs again): its slash commands, its modes and config options, and the
   * person's choices among them. Empty for other sessions and before the agent first started. Kept by `acp.offers.changed`.
   */
  'acp.offers': defineOperation<{ offers: AcpSessionOffers }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /**
   * Chooses among what an ACP session's agent offers (its mode, or a config option such as its model or
   * thought level): kept in the session's record and applied to the running agent, and again whenever
   * the agent starts for the session. A mode that would act without Cairn's approval only in Full.
   */
  'acp.choose': defineOperation<{ offers: AcpSessionOffers }>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      selectorId: wellFormedString().min(1).max(200),
      value: wellFormedString().min(1).max(500),
    }),
    errors: ['not_found', 'invalid_input', 'provider_error'],
  }),
  /**
   * One page of an ACP connection's agent's own earlier sessions for a folder (`session/list`, its
   * cursor for the next page), each with the Cairn session it was imported as. Starts the agent for
   * the call. `offered` false when the agent does not declare `session/list`.
   */
  'acp.sessions': defineOperation<AcpSessionListing>()({
    mode: 'query',
    input: z.strictObject({
      connectionId: id,
      cwd: wellFormedString().min(1).max(4096),
      cursor: wellFormedString().min(1).max(2000).optional(),
    }),
    errors: ['not_found', 'invalid_input', 'operation_unavailable', 'provider_error'],
  }),
  /**
   * Imports one of the agent's sessions (`session/load`): a Cairn session on the connection, in that
   * folder, bound to the agent session, whose transcript is the history the agent replayed; its next
   * message continues the same agent session. The same agent session imported again answers the
   * Cairn session it already is (`created` false).
   */
  'acp.import': defineOperation<{ session: SessionRecord; created: boolean }>()({
    mode: 'command',
    input: z.strictObject({
      connectionId: id,
      acpSessionId: wellFormedString().min(1).max(500),
      cwd: wellFormedString().min(1).max(4096),
      title: wellFormedString().trim().min(1).max(200).optional(),
    }),
    errors: ['not_found', 'invalid_input', 'operation_unavailable', 'provider_error'],
  }),
  /**
   * How an ACP connection's agent signs in (`initialize`'s `authMethods`): as it last said, or, not yet
   * asked (or `refresh`), by starting the agent for `initialize` (then ending it).
   */
  'acp.login.methods': defineOperation<{ methods: AcpAuthMethods }>()({
    mode: 'query',
    input: z.strictObject({ connectionId: id, refresh: z.boolean().optional() }),
    errors: ['invalid_input', 'provider_error'],
  }),
  /**
   * Signs in to an ACP connection's agent with one of its methods: `agent` asks the agent
   * (`authenticate`), `terminal` runs its program with the method's arguments, output and input
   * through `acp.login.output` / `acp.login.input`. One per connection at a time (a second ask answers
   * the running one). Desktop only.
   */
  'acp.login.start': defineOperation<{ login: AcpLoginState }>()({
    mode: 'command',
    input: z.strictObject({ connectionId: id, methodId: wellFormedString().min(1).max(200) }),
    errors: ['invalid_input', 'provider_error'],
  }),
  /** A line for a running terminal sign-in's stdin (a newline is added). Desktop only. */
  'acp.login.input': defineOperation<{ login: AcpLoginState }>()({
    mode: 'command',
    input: z.strictObject({ loginId: id, text: wellFormedString().max(4000) }),
    errors: ['not_found', 'invalid_input'],
  }),
  /** Cancels a running sign-in: its process group is ended. Desktop only. */
  'acp.login.cancel': defineOperation<{ login: AcpLoginState }>()({
    mode: 'command',
    input: z.strictObject({ loginId: id }),
    errors: ['not_found'],
  }),
} as const;
