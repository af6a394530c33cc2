// The logbook group's chunk (settings-groups.ts).
export { LogbookSection as default } from '../LogbookSection';
