import { Shell } from '../components/Shell';
import { mount } from '../components/mount';
import { useJson } from '../components/useJson';

function Page() {
  const health = useJson<{ ok: boolean; timestamp: string }>('/health', 10000);
  return (
    <Shell title="Kiosk">
      <p>Rotating scenes for an unattended screen.</p>
      <p>Service: {health.data ? (health.data.ok ? 'up' : 'down') : health.error ?? '…'}</p>
    </Shell>
  );
}

mount(Page);
