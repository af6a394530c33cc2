import { load, save } from './persist';

// Night mode (red on black) is remembered per device and applied before the first render.

export const isNight = (): boolean => load<boolean>('night') === true;

export function setNight(on: boolean): void {
  save('night', on);
  document.documentElement.classList.toggle('night', on);
}
