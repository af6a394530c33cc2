// The location group's chunk (settings-groups.ts).
export { LocationSection as default } from '../LocationSection';
