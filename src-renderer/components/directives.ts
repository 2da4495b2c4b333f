/** The scripted agent's directives, as the empty states and the help panel offer them. */
export const DIRECTIVES: ReadonlyArray<{ readonly example: string; readonly what: string }> = [
  { example: 'Hello there', what: 'Plain text: a reply streamed back in chunks' },
  { example: '/stream 20 50', what: 'Streams 20 chunks, 50 ms apart' },
  { example: '/hold', what: 'Keeps working until you press Stop' },
  { example: '/fail provider_error Oops', what: 'Fails the turn, so you can Retry it' },
  { example: '/steps 3', what: 'Takes 3 steps' },
];
