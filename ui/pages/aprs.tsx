import { Shell } from '../components/Shell';
import { mount } from '../components/mount';
import { useJson } from '../components/useJson';

function Page() {
  const health = useJson<{ ok: boolean; timestamp: string }>('/health', 10000);
  return (
    <Shell title="APRS">
      <p>APRS station: target, connection, messages and receive log.</p>
      <p>Service: {health.data ? (health.data.ok ? 'up' : 'down') : health.error ?? '…'}</p>
    </Shell>
  );
}

mount(Page);
