/** L-Eval (OpenLMLab), the long-context benchmark whose repository republishes whole-document sets in small files. */
export const LEVAL = { repository: 'https://github.com/OpenLMLab/LEval', commit: 'cd34b050269148aed75acbbe4a599873ad0f37e9' } as const;

/** One L-Eval record: a whole document and the questions (instructions) asked of it, with their gold outputs. */
export interface LevalRow {
  input: string;
  instructions: string[];
  outputs: string[];
}
