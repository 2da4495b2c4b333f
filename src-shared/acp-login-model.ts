/**
 * Signing in to an ACP agent: the ways it declares at `initialize` (`authMethods`), and a sign-in
 * Cairn runs on the person's click.
 *
 * - `agent`: Cairn asks the agent to sign in itself (`authenticate`); it may open a browser.
 * - `terminal`: Cairn runs the agent's program with the method's arguments and variables, its output
 *   and input in a panel of the app; exit code 0 means signed in.
 * - `env_var`: the agent reads a key from its environment: the connection's API key field or Environment.
 */
export type AcpAuthMethodKind = 'agent' | 'terminal' | 'env_var';

export interface AcpAuthMethod {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly kind: AcpAuthMethodKind;
  /** `terminal`: the arguments the agent's program is run with for it. */
  readonly args: readonly string[];
  /** `env_var`: the names of the variables it reads. */
  readonly vars: readonly string[];
}

/** What the connection's agent declared, as it last said (null: it has not been asked yet). */
export interface AcpAuthMethods {
  readonly connectionId: string;
  readonly methods: readonly AcpAuthMethod[];
  /** When the agent last said it (ms). */
  readonly at: number;
}

export type AcpLoginStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

/** One sign-in: how it stands, and (for a terminal sign-in) what the program wrote so far, bounded. */
export interface AcpLoginState {
  readonly loginId: string;
  readonly connectionId: string;
  readonly methodId: string;
  readonly methodName: string;
  readonly kind: 'agent' | 'terminal';
  readonly status: AcpLoginStatus;
  /** The program's output (stdout and stderr as they came), its last `ACP_LOGIN_OUTPUT_CHARS` characters. */
  readonly output: string;
  /** Why it failed, in words a person reads; null unless failed. */
  readonly error: string | null;
  readonly startedAt: number;
  readonly endedAt: number | null;
}

/** How much of a sign-in's output is kept (and sent to a panel opened late). */
export const ACP_LOGIN_OUTPUT_CHARS = 32_000;
