import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../../lib/api';
import type { GroupProps } from './group-props';
import { groupOf, SETTINGS_GROUPS, type SettingsGroup } from './settings-groups';
import './settings.css';

// Both settings pages: the list of groups, and the one group the URL's fragment names (the
// page's own first group without one). A group's code loads when it is opened; the list stays
// one tap away (beside the group on a wide screen, "Groups" in the group's sticky bar on a
// small one).

type Loaded = { id: string; Group: ComponentType<GroupProps> } | { id: string; error: string };

/** The group the address names now, else `fallback`. */
const current = (fallback: string): SettingsGroup => groupOf(location.hash) ?? SETTINGS_GROUPS.find((g) => g.id === fallback)!;

export function SettingsHub(props: GroupProps & { fallback: string }) {
  const [group, setGroup] = useState(() => current(props.fallback));
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  // Set when the operator (or a deep link) asked for a group: it is brought into view once shown.
  const reveal = useRef(location.hash !== '');
  const section = useRef<HTMLElement>(null);
  const nav = useRef<HTMLElement>(null);

  useEffect(() => {
    const follow = () => {
      reveal.current = true;
      setGroup(current(props.fallback));
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);

  useEffect(() => {
    let alive = true;
    setLoaded(null);
    document.title = `satstation · Settings · ${group.title}`;
    group.load().then(
      (m) => alive && setLoaded({ id: group.id, Group: m.default }),
      (e) => alive && setLoaded({ id: group.id, error: errorText(e) }),
    );
    return () => {
      alive = false;
    };
  }, [group]);

  useEffect(() => {
    const el = section.current;
    if (!loaded || !reveal.current || !el) return;
    reveal.current = false;
    // Where the list stands above the group (a small screen), the group comes up to the top.
    const top = el.getBoundingClientRect().top;
    if (top < 0 || top > innerHeight / 3) el.scrollIntoView({ block: 'start' });
    el.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
  }, [loaded]);

  const shown = loaded?.id === group.id ? loaded : null;
  return (
    <div class="hub">
      <nav class="groups" aria-label="Settings groups" ref={nav}>
        {SETTINGS_GROUPS.map((g) => (
          <a key={g.id} href={`#${g.id}`} class="btn" aria-current={g.id === group.id ? 'page' : undefined}>
            {g.label}
          </a>
        ))}
      </nav>
      <section class="panel group" id={group.id} aria-labelledby={`${group.id}-h`} aria-busy={!shown} data-group={group.id} data-loaded={shown ? 'Group' in shown : undefined} ref={section}>
        <div class="group-bar">
          <h2 id={`${group.id}-h`} tabIndex={-1}>
            {group.title}
          </h2>
          <button
            type="button"
            class="to-groups"
            onClick={() => {
              scrollTo(0, 0);
              nav.current?.querySelector<HTMLElement>('[aria-current]')?.focus();
            }}
          >
            Groups ↑
          </button>
        </div>
        {!shown && <p class="muted">Loading…</p>}
        {shown && 'error' in shown && (
          <p class="banner bad" role="alert">
            This group did not load ({shown.error}).{' '}
            {/* A module that failed to load stays failed until the page loads again. */}
            <button type="button" onClick={() => location.reload()}>
              Reload
            </button>
          </p>
        )}
        {shown && 'Group' in shown && <shown.Group key={group.id} access={props.access} />}
      </section>
    </div>
  );
}
