// The rotator group's chunk (settings-groups.ts).
export { RotatorSection as default } from '../RotatorSection';
