import { AccessSection } from '../AccessSection';
import type { GroupProps } from '../settings-groups';

export default function AccessGroup(props: GroupProps) {
  return <AccessSection access={props.access} />;
}
