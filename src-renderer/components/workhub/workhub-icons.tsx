import { Icon } from '../icons';

/** The WorkHub's own line icons, drawn like the app's (24-unit grid, currentColor), hidden from assistive technology. */

/** A hub with three spokes: where requests come in and go out to sessions. */
export const WorkHubIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="3" />
    <circle cx="12" cy="3.8" r="1.6" />
    <circle cx="4.9" cy="16.1" r="1.6" />
    <circle cx="19.1" cy="16.1" r="1.6" />
    <path d="M12 5.4V9M6.3 15.3l3.1-1.8M17.7 15.3l-3.1-1.8" />
  </Icon>
);

export const TasksIcon = () => (
  <Icon>
    <path d="m4 6.5 1.5 1.5L8 5.5M4 12.5 5.5 14 8 11.5M4 18.5 5.5 20 8 17.5M11 7h9M11 13h9M11 19h9" />
  </Icon>
);

export const HandOffIcon = () => (
  <Icon>
    <path d="M4 12h13M13 7l5 5-5 5" />
  </Icon>
);

export const ChevronIcon = () => (
  <Icon>
    <path d="m9 6 6 6-6 6" />
  </Icon>
);

export const SparkIcon = () => (
  <Icon>
    <path d="M12 3.5v4M12 16.5v4M3.5 12h4M16.5 12h4M6 6l2.6 2.6M15.4 15.4 18 18M18 6l-2.6 2.6M8.6 15.4 6 18" />
  </Icon>
);
