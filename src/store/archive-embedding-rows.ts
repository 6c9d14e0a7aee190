/** The words of an archived turn that are embedded: who spoke, the question and the answer. */
export const TURN_TEXT_SQL = "author || ': ' || question || '\n' || answer";
