import type { useAccess } from './AccessSection';

/**
 * What the settings page gives every group: the operator lock it polls for its own header. Its
 * own module, so a group (loaded by settings-groups.ts) does not import the list that loads it.
 */
export interface GroupProps {
  access: ReturnType<typeof useAccess>;
}
