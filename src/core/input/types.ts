/** An earlier message of the thread or reply chain a question was asked in. */
export interface ContextMessage {
  /** The speaker's display name. */
  author: string;
  /** When it was written. */
  at: Date;
  text: string;
  /** How it came to be read: the thread the question is in (default), or the message it replies to. */
  source?: 'thread' | 'reply' | 'forwarded' | undefined;
}

/** A file attached to a question, as the adapter downloaded it: its text, an image, or why it was skipped. */
export type Attachment = {
  name: string;
  /** Media type, e.g. `text/plain` or `image/png`. */
  mediaType: string;
  /** Size in bytes as the platform reported it. */
  size: number;
} & (
  | {
      kind: 'text';
      text: string;
      /** Set when the download stopped at the byte cap: the bytes read. */
      cutAtBytes?: number | undefined;
      /** A document's pages, slides, sheets or headed parts, for the channel's knowledge (its citations). */
      sections?:
        | readonly { heading?: string | undefined; page?: number | undefined; text: string }[]
        | undefined;
    }
  | { kind: 'image' /** Base64 of the image's bytes. */; data: string }
  | { kind: 'skipped' /** Why, in a few words for the asker, e.g. "binary or unknown type". */; note: string }
);

/** How much of a thread and its files the model is shown, named as in the configuration. */
export interface InputSettings {
  /** Tokens of earlier thread messages at most; the newest are kept. */
  CONTEXT_MAX_TOKENS: number;
  /** Tokens of one attached text file at most; the rest is cut with a visible marker. */
  ATTACHMENT_MAX_TOKENS: number;
  /** The model takes images (OpenAI `image_url` parts). */
  LLM_VISION: boolean;
}

/** The defaults of {@link InputSettings}. */
export const DEFAULT_INPUT_SETTINGS: InputSettings = {
  CONTEXT_MAX_TOKENS: 3000,
  ATTACHMENT_MAX_TOKENS: 8000,
  LLM_VISION: false,
};

/** How the bot's own earlier answers are named in the context it reads. */
export const OWN_SPEAKER = 'you (the assistant)';
