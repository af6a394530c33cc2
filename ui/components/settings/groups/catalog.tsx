import { useState } from 'preact/hooks';
import { useNow } from '../../useNow';
import { CatalogSection, SnapshotsSection } from '../CatalogSection';
import { useZone } from '../useZone';

/** The catalog and its snapshots (a refresh records one, so the list follows it). */
export default function CatalogGroup() {
  const zone = useZone();
  const now = useNow();
  const [refreshes, setRefreshes] = useState(0);
  return (
    <>
      <CatalogSection zone={zone} now={now} onRefreshed={() => setRefreshes((n) => n + 1)} />
      <h3>Snapshots</h3>
      <SnapshotsSection zone={zone} generation={refreshes} />
    </>
  );
}
