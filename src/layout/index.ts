export type { Checkout, CheckoutKind, DiscoveryResult, Layout } from './types.js';
export {
  checkoutContaining,
  discoverLayout,
  isInside,
  nodeLayoutFs,
  parseGitConfig,
  type LayoutFs,
  type LayoutStat,
} from './discover.js';
