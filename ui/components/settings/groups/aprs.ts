// The aprs group's chunk (settings-groups.ts).
export { AprsSection as default } from '../AprsSection';
