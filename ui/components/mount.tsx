import { render, type ComponentType } from 'preact';

export function mount(Page: ComponentType) {
  const root = document.getElementById('app');
  if (root) render(<Page />, root);
}
