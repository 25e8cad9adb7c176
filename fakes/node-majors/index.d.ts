/** An extra Node.js major and its binary, `undefined` where npm left it out (its package is for Linux x64 only). */
export interface NodeMajor {
  major: number;
  path: string | undefined;
}

export function nodeMajors(): NodeMajor[];
