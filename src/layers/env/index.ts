/** The git-environment layer: `bashguard env`. */
export { gitEnv, formatGitEnv, LayerError, type GitEnv, type EnvFormat } from './env.js';
