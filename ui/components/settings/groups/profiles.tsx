import { ProfilesSection } from '../ProfilesSection';
import { useZone } from '../useZone';

export default function ProfilesGroup() {
  return <ProfilesSection zone={useZone()} />;
}
