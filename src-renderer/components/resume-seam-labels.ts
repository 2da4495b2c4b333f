import { createContext } from 'react';

/** What each seam of the answer being rendered says ("Resumed: …"), by seam number (resume-seams.ts). */
export const ResumeSeamLabels = createContext<readonly string[]>([]);
