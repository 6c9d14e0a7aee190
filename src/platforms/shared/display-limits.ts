/** Longest tool result shown in a step; the model saw it whole. */
export const OBSERVATION_CHARS = 1500;

/** Longest tool input shown in an Action step. */
export const ACTION_INPUT_CHARS = 300;

/** Longest thought shown in a step. */
export const THOUGHT_CHARS = 2500;

/** Most steps a run shows; the rest are counted in one line ("… K more steps"). */
export const STEPS_SHOWN_MAX = 50;
