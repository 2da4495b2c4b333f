/** The scripted agent's directives, as the empty states and the help panel offer them. */
export const DIRECTIVES: ReadonlyArray<{ readonly example: string; readonly what: string }> = [
  { example: 'Hello there', what: 'Plain text: a reply streamed back in chunks' },
  { example: '/stream 20 50', what: 'Streams 20 chunks, 50 ms apart' },
  { example: '/hold', what: 'Keeps working until you press Stop' },
  { example: '/fail rate_limited Slow down', what: 'Fails the turn, so you can Retry it' },
  { example: '/ask', what: 'Asks you three questions inline' },
  { example: '/form', what: 'Asks you to fill in a form' },
  { example: '/goal write the summary, finish after 3', what: 'Sets a goal the agent keeps working toward' },
];
