import { AccessSection } from '../AccessSection';
import type { GroupProps } from '../group-props';

export default function AccessGroup(props: GroupProps) {
  return <AccessSection access={props.access} />;
}
