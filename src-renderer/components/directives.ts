import { OFFLINE_DEMO_DIRECTIVES } from '../../src-shared/offline-demo-directives';

/** Every directive of the Offline demo agent (the / menu and the help panel). */
export const DIRECTIVES = OFFLINE_DEMO_DIRECTIVES;

/** The few an empty session offers as chips, to try the demo at a glance. */
export const FEATURED_DIRECTIVES = OFFLINE_DEMO_DIRECTIVES.filter((directive) => directive.featured);
