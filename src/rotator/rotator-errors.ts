import { AppError } from '../util/errors.js';

/** Anything that needs the controller while it is not connected (issue 25). */
export const notConnected = () => new AppError(409, 'rotator_not_connected', 'the rotator is not connected: POST /api/v1/rotator/connect first');

export const rotatorDisabled = () => new AppError(409, 'rotator_disabled', 'the rotator is disabled: set enabled true in the rotator settings first');
