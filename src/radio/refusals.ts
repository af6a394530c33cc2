import { AppError } from '../util/errors.js';

// The radio's refusals that need no rig code: the radio area answers with them before radio
// control is loaded (a module of their own so boot does not load the CI-V stack to say no).

export const notConnected = () =>
  new AppError(409, 'rig_not_connected', 'the rig is not connected: POST /api/v1/radio/connect first (check the serial device in the radio settings)');

export const radioDisabled = () => new AppError(409, 'radio_disabled', 'radio control is disabled: set enabled true in the radio settings first');
