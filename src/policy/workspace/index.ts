/** The workspace model: layout, trusted configuration, write roots, protected regions, classify. */
export { openWorkspace, workspaceFromLayout, toolWriteEffect, Workspace, type WorkspaceOptions, type CommandCheck, type RootSource } from './workspace.js';
export { loadTrustedConfig, UntrustedConfigError, configFiles, userConfigFile, tighten, type Env, type LoadedConfig, type TrustedConfigInput } from './config.js';
export { buildRegions, classify, scratchRoots, protects, allowedRegion, DEVICE_ROOTS, type Region, type RegionKind } from '../regions.js';
export { nodeHost } from './host.js';
