import {
  type APIContainerComponent,
  ContainerBuilder,
  SeparatorBuilder,
  TextDisplayBuilder,
} from 'discord.js';
import { splitMessage } from '../shared/split-message.js';
import { moreSteps } from '../shared/wording.js';
import type { PostEditable, StepsLayout } from './steps.js';

/**
 * A components v2 message: at most 40 components in all, nested ones and the container counted
 * (https://discord.com/developers/docs/components/reference), and 4,000 characters across its text
 * displays (discord-api-docs PR #8562, documenting the API's limit).
 */
export const CARD_LIMITS = { components: 40, text: 4_000 } as const;

/** The steps card's first line, above the separator. */
export const CARD_HEADER = '**Reasoning**';

/** The container, the header and the separator. */
const FRAME_COMPONENTS = 3;
/** Room kept for the "… N more steps" line. */
const MORE_CHARS = 40;

/** A components v2 message's body: one container; the IS_COMPONENTS_V2 flag goes with it. */
export type Card = APIContainerComponent;

/** Posts a components v2 message and returns the function that edits it. */
export type PostCard = (card: Card) => Promise<(next: Card) => Promise<void>>;

/** Where messages go: classic ones, and components v2 cards where the place can take them. */
export interface Poster {
  post: PostEditable;
  postCard?: PostCard | undefined;
}

/**
 * The texts of the steps card: the header, then the first steps that fit Discord's limits, then
 * "… N more steps" in place of the rest.
 */
export function fitCard(steps: readonly string[]): string[] {
  const slots = CARD_LIMITS.components - FRAME_COMPONENTS;
  const budget = CARD_LIMITS.text - CARD_HEADER.length;
  const total = steps.reduce((sum, step) => sum + step.length, 0);
  if (steps.length <= slots && total <= budget) return [CARD_HEADER, ...steps];
  const shown: string[] = [];
  let chars = 0;
  for (const step of steps) {
    if (shown.length + 1 >= slots) break;
    if (chars + step.length + MORE_CHARS > budget) {
      // A first step too long alone: its beginning.
      if (shown.length === 0) shown.push(splitMessage(step, budget - MORE_CHARS)[0]!);
      break;
    }
    shown.push(step);
    chars += step.length;
  }
  return [CARD_HEADER, ...shown, `-# ${moreSteps(steps.length - shown.length)}`];
}

/** The container of the card's texts: the header, a separator, one text display per step. */
export function stepsCard(texts: readonly string[]): Card {
  const [header, ...steps] = texts;
  const card = new ContainerBuilder().addTextDisplayComponents(
    new TextDisplayBuilder().setContent(header ?? CARD_HEADER),
  );
  card.addSeparatorComponents(new SeparatorBuilder());
  if (steps.length > 0)
    card.addTextDisplayComponents(steps.map((step) => new TextDisplayBuilder().setContent(step)));
  return card.toJSON();
}

/** The steps as one components v2 message, posted and edited through `post`. */
export function cardLayout(post: PostCard): StepsLayout<string[]> {
  return {
    fit: fitCard,
    post: async (texts) => {
      const edit = await post(stepsCard(texts));
      return (next) => edit(stepsCard(next));
    },
  };
}
