/** The guidance layer: `bashguard prompt`, the rules text for a builder's prompt or role doc. */
export { promptGuidance, formatPrompt, localize, type PromptGuidance, type PromptRule, type PromptFormat } from './prompt.js';
