/**
 * The Offline demo (scripted) agent's directives, each as an example the person can send and what it
 * does: the / menu and the help panel list them all, the empty session offers the `featured` ones as
 * chips. The agent reads them in src-main/runtime/agent-backends/scripted/scripted-directives.ts,
 * whose test holds this list to every directive it knows.
 */
export interface OfflineDemoDirective {
  readonly example: string;
  readonly what: string;
  readonly featured: boolean;
}

export const OFFLINE_DEMO_DIRECTIVES: readonly OfflineDemoDirective[] = [
  { example: 'Hello there', what: 'Plain text: a reply streamed back in chunks', featured: true },
  {
    example: '/stream 20 50',
    what: 'Streams 20 chunks, 50 ms apart (add "markdown" for headings and code)',
    featured: true,
  },
  { example: '/hold', what: 'Keeps working until you press Stop', featured: true },
  { example: '/fail rate_limited Slow down', what: 'Fails the turn, so you can Retry it', featured: true },
  { example: '/steps 3', what: 'Takes 3 steps without tools, to try the step budget', featured: false },
  { example: '/ask', what: 'Asks you three questions inline', featured: true },
  { example: '/ask-secret', what: 'Asks you for a secret (masked) and a choice', featured: false },
  { example: '/form', what: 'Asks you to fill in a form', featured: true },
  {
    example: '/tool read_file {"path":"README.md"}',
    what: 'Calls a tool with that JSON input, asking permission as a model would',
    featured: false,
  },
  {
    example: '/tools [["list_files", {"path":"."}], ["read_file", {"path":"README.md"}]]',
    what: 'Calls several tools in one turn, in order',
    featured: false,
  },
  { example: '/skill ID', what: 'Loads the skill ID and says what it read', featured: false },
  {
    example: '/remember Tests run with npm test',
    what: 'Saves that to long-term memory (start with "global" for every workspace)',
    featured: false,
  },
  { example: '/recall tests', what: 'Searches long-term memory', featured: false },
  {
    example: '/goal write the summary, finish after 3',
    what: 'Sets a goal the agent keeps working toward',
    featured: true,
  },
  {
    example: '/spawn explore "List the files" wait',
    what: 'Starts a child agent on a task and waits for its report',
    featured: false,
  },
  { example: '/spawn-many 3', what: 'Starts 3 child agents at once', featured: false },
];
