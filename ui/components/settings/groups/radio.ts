// The radio group's chunk (settings-groups.ts).
export { RadioSection as default } from '../RadioSection';
