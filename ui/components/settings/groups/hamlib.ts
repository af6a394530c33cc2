// The hamlib group's chunk (settings-groups.ts).
export { HamlibSection as default } from '../HamlibSection';
