import { useState } from 'preact/hooks';
import { Shell } from '../components/Shell';
import { mount } from '../components/mount';
import './docs.css';

// /docs: the API reference in the site's frame. The route list itself is rendered by the server
// after #app (src/http/openapi.ts renderDocsBody), so it reads the same without this script and
// is never built twice; the page adds the navigation, night mode and a filter over that list.

function applyFilter(q: string): void {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const list = document.getElementById('docs');
  if (!list) return;
  for (const section of Array.from(list.querySelectorAll('section'))) {
    let shown = 0;
    for (const d of Array.from(section.querySelectorAll('details'))) {
      const text = (d.querySelector('summary')?.textContent ?? '').toLowerCase();
      const hit = words.every((w) => text.includes(w));
      d.hidden = !hit;
      if (hit) shown++;
    }
    section.hidden = shown === 0;
  }
}

function Page() {
  const [q, setQ] = useState('');
  return (
    <Shell title="API reference">
      <label class="docs-filter">
        <span class="sr-only">Filter routes</span>
        <input
          type="search"
          placeholder="Filter: path, method or words"
          value={q}
          onInput={(e) => {
            const v = (e.target as HTMLInputElement).value;
            setQ(v);
            applyFilter(v);
          }}
        />
      </label>
    </Shell>
  );
}

mount(Page);
