// The passes group's chunk (settings-groups.ts).
export { PassFilterSection as default } from '../PassFilterSection';
