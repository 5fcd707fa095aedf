// Text normalisation for matching names and aliases: the one folding every search uses (core/text.ts).
export { foldText as normalize, foldWords as tokens } from '../../../core/text.ts';
