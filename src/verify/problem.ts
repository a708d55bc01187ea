/** One broken rule: the line it shows on (1-based; 0 for an empty stream) and what is wrong. */
export interface VerifyProblem {
  line: number;
  message: string;
}
