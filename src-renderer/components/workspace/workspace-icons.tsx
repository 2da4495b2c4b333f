import { Icon } from '../icons';

/** Icons for workspace tools and commands, drawn like the app's (24-unit grid, currentColor), hidden from assistive technology. */
export const FolderIcon = () => (
  <Icon>
    <path d="M3.5 7.5a2 2 0 0 1 2-2h4l2 2h7a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-13a2 2 0 0 1-2-2v-10Z" />
  </Icon>
);
export const TerminalIcon = () => (
  <Icon>
    <rect x="3" y="4.5" width="18" height="15" rx="2" />
    <path d="m7 9.5 3 2.5-3 2.5M12.5 15h4.5" />
  </Icon>
);
export const FileIcon = () => (
  <Icon>
    <path d="M14 3.5H7a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-10L14 3.5Z" />
    <path d="M14 3.5v5h5M9 13h6M9 16.5h4" />
  </Icon>
);
export const FileEditIcon = () => (
  <Icon>
    <path d="M12 20.5H7a2 2 0 0 1-2-2v-13a2 2 0 0 1 2-2h7l5 5v3" />
    <path d="M14 3.5v5h5M14.5 20.5v-2.2l4.6-4.6a1.5 1.5 0 0 1 2.2 2.2l-4.6 4.6h-2.2Z" />
  </Icon>
);
export const FindIcon = () => (
  <Icon>
    <circle cx="10.5" cy="10.5" r="6" />
    <path d="m19.5 19.5-4.6-4.6" />
  </Icon>
);
export const ToolIcon = () => (
  <Icon>
    <path d="M14.5 6.5a4 4 0 0 0 5 5l-8 8a2.1 2.1 0 0 1-3-3l8-8Z" />
    <path d="M14.5 6.5 17 4l3 3-2.5 2.5" />
  </Icon>
);
export const ChevronRightIcon = () => (
  <Icon>
    <path d="m10 7 5 5-5 5" />
  </Icon>
);
