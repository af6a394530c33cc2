import { Shell } from '../components/Shell';
import { SettingsHub } from '../components/settings/SettingsHub';
import { LockBadge, useAccess } from '../components/settings/AccessSection';
import { mount } from '../components/mount';

// Settings grouped as the API groups them, one group at a time (settings-groups.ts); each group
// saves on its own and shows the API's field errors under the field. The lock badge in the
// title row says on every group whether the LAN can change things.

function Page() {
  const access = useAccess();
  return (
    <Shell title="Settings" status={<LockBadge access={access.data} />}>
      <SettingsHub access={access} fallback="location" />
    </Shell>
  );
}

mount(Page);
