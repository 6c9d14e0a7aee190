import { REFUSED_MESSAGE } from '../../core/governance/governor.js';
import {
  BUSY_MESSAGE,
  CLOSING_MESSAGE,
  SETTINGS_ADMINS_ONLY,
  STORAGE_UNAVAILABLE_MESSAGE,
} from '../../core/runs/run-replies.js';

/** Every sentence the bot says on its own account, on every surface; named once so all platforms agree. */
export const WORDING = {
  /** Shown where the answer will appear until it starts streaming. */
  thinking: 'Thinking…',
  /** Slack's status line while the bot works on an answer (Slack puts the app's name before it). */
  working: 'is thinking…',
  /** Slack's status line while a tool call waits for a person's approval. */
  waitingApproval: 'is waiting for approval…',
  /** A channel already has MAX_QUEUED_PER_CHANNEL questions waiting (the core's sentence). */
  busy: BUSY_MESSAGE,
  /** A question arrived while the bot shuts down (the core's sentence). */
  shuttingDown: CLOSING_MESSAGE,
  /** The access lists refuse this asker here (the core's sentence). */
  refused: REFUSED_MESSAGE,
  /** `/settings` from someone who is not an admin (the core's sentence). */
  settingsAdminsOnly: SETTINGS_ADMINS_ONLY,
  /** The asker cancelled the answer. */
  cancelled: 'Cancelled.',
  /** The bot shut down before it could finish an answer. */
  restarted: 'I was restarted before I could finish; please ask again.',
  /** The bot shut down while a tool call waited for approval: the call is kept, and a press goes on with it. */
  restartedWaiting:
    'I was restarted while a tool call waited for approval. It still does: approve or deny it, and I will go on from there.',
  /** The replica answering stopped (crashed) before it finished; another one says so in its place. */
  interrupted: 'My answer was interrupted before I could finish; please ask again.',
  /** The database the replicas share cannot be reached (the core's sentence). */
  storageUnavailable: STORAGE_UNAVAILABLE_MESSAGE,
  /** Something unexpected went wrong (details are in the logs). */
  failed: 'Something went wrong while answering.',
  /** The model answered with nothing. */
  emptyAnswer: '(The answer was empty.)',
  /** A mention with no question after it. */
  bareMention: 'Ask me something after the mention, e.g. “@me what is 123 * 456?”',
  /** Under an answer the model's length limit cut short. */
  lengthCut: 'The model stopped at its length limit, so this answer is incomplete.',
  /** The answer was longer than ANSWER_MAX_CHARS and was cut there. */
  maxCharsCut: 'This answer was longer than the bot’s limit, so it was cut here.',
  /** A command failed; the cause is in the logs. */
  commandFailed: 'That did not work; the details are in the bot’s logs.',
  /** Ends an answer someone stopped, after what it had written. */
  stopped: '(stopped)',
  /** The Stop button's label. */
  stopButton: 'Stop',
  /** Someone other than the asker (or an admin) pressed Stop. */
  onlyAskerCanStop: 'Only the asker can stop this.',
  /** A button pressed on an answer that has ended (or is from before a restart). */
  answerFinished: 'This answer is finished.',
  /** After a 👍 or 👎. */
  feedbackThanks: 'Thanks for the feedback!',
  /** Said once per conversation when the bot lacks the permission to read a thread's earlier messages. */
  threadUnreadable:
    'I could not read the earlier messages here (the bot lacks the permission), so I answered from this message alone.',
  /** Reading a thread's earlier messages failed for another reason. */
  threadReadFailed: 'I could not read the earlier messages here, so I answered from this message alone.',
  /** The question of a mention that brings files and no text. */
  filesOnly: 'Please look at the attached file.',
  /** The question of a message that only forwards another (the forwarded one is quoted as data). */
  forwardedOnly: 'What does this forwarded message say?',
  /** The bot could not post its answer in the channel. */
  notInChannel: 'I could not post in this channel: add me to it first (`/invite`), then ask again.',
} as const;

/** The note in the steps once a pending tool call is decided (the core's sentence). */
export { approvalNote } from '../../core/approvals/approval-wording.js';

/** The note in the steps of a stopped run. */
export function stoppedBy(name: string): string {
  return `Stopped by ${name}.`;
}

/** The line in place of the steps past STEPS_SHOWN_MAX. */
export function moreSteps(count: number): string {
  return `… ${count.toLocaleString('en')} more step${count === 1 ? '' : 's'} not shown`;
}

/** The note ending an answer cut to ANSWER_MAX_MESSAGES messages. */
export function answerCutNote(shownChars: number, totalChars: number): string {
  return `(cut: the answer is ${totalChars.toLocaleString('en')} characters; the first ${shownChars.toLocaleString('en')} are shown)`;
}

/** The note under a step's text that was shortened for display (the model saw it whole). */
export function cutNote(fullLength: number): string {
  return `cut: ${fullLength.toLocaleString('en')} characters in full`;
}

/**
 * Short replies in a followed thread that say thanks or ok rather than ask something: they get a reaction,
 * not an answer. Compared whole, in lower case, without punctuation; emoji and Slack's `:names:` count too.
 */
export const ACKNOWLEDGEMENTS: readonly string[] = [
  'thanks',
  'thank you',
  'thanks a lot',
  'thanks so much',
  'many thanks',
  'thank you so much',
  'thx',
  'ty',
  'tysm',
  'cheers',
  'ok',
  'okay',
  'ok thanks',
  'ok thank you',
  'okay thanks',
  'k',
  'kk',
  'got it',
  'got it thanks',
  'great',
  'great thanks',
  'perfect',
  'perfect thanks',
  'nice',
  'cool',
  'awesome',
  'sounds good',
  'makes sense',
  'understood',
  'noted',
  'will do',
  'all good',
  'lgtm',
  'merci',
  'danke',
  'gracias',
  'obrigado',
  'grazie',
  '谢谢',
  '好的',
  '收到',
  'ありがとう',
  '了解',
  '👍',
  '🙏',
  '🙌',
  '👌',
  '✅',
  '❤️',
  '+1',
  ':+1:',
  ':thumbsup:',
  ':pray:',
  ':raised_hands:',
  ':ok_hand:',
  ':white_check_mark:',
  ':heart:',
];
