// A Dockerfile's stages and instructions, enough for deploy/containers.test.ts and deploy/check-build-stage.mjs:
// comments and blank lines dropped, backslash continuations joined, `FROM image AS name` opening a stage. Plain
// JavaScript, because the check script runs without a build step; typed by dockerfile.d.mts.

/** @param {string} text @returns {import('./dockerfile.d.mts').DockerStage[]} */
export function parseDockerfile(text) {
  const logical = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  /** @type {import('./dockerfile.d.mts').DockerStage[]} */
  const stages = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') {
      const [, from = '', name = String(stages.length)] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ name, from, instructions: [], run: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) continue; // an ARG before the first FROM
    stage.instructions.push(instruction);
    if (instruction.keyword === 'RUN') stage.run.push(args);
  }
  return stages;
}
