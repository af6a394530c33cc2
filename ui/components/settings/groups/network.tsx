import { ResourceForm } from '../../ResourceForm';
import { StatusBadge } from '../../StatusBadge';
import { usePoll } from '../../usePoll';
import type { FieldSpec } from '../../../lib/schema-form';

const NET_FIELDS: FieldSpec[] = [{ name: 'offline', label: 'Offline', help: 'On: no refresh, status lookup or iGate connection leaves the appliance.' }];

/** The offline switch, and whether the appliance is online now and why (switch, no interface). */
export default function NetworkGroup() {
  const net = usePoll<{ online: boolean; reason: string }>('/api/v1/network', 30_000, undefined, { on: ['lite'] });
  return (
    <>
      {net.data && (
        <p data-network>
          <StatusBadge tone={net.data.online ? 'ok' : 'idle'}>{net.data.online ? 'online' : 'offline'}</StatusBadge> <span class="muted">{net.data.reason}</span>
        </p>
      )}
      <ResourceForm path="/api/v1/network" title="Offline switch" fields={NET_FIELDS} onSaved={() => net.refresh()} />
    </>
  );
}
