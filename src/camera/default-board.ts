/**
 * The calibration board Vedette prints by default (`vedette print board`) and so the one the
 * calibration wizard offers first: one board, named in one place.
 */
export const DEFAULT_BOARD_NAME = 'vedette-7x9';
export const DEFAULT_BOARD_SPEC = `calibration/boards/${DEFAULT_BOARD_NAME}.json`;
