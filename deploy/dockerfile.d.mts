export interface DockerInstruction {
  keyword: string;
  args: string;
}

export interface DockerStage {
  name: string;
  from: string;
  instructions: DockerInstruction[];
  /** The stage's RUN commands, in order. */
  run: string[];
}

export function parseDockerfile(text: string): DockerStage[];
